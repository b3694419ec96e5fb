import { canonicalPagePath, isPagePath, pagePaths } from '../../shared/routes';

describe('the route table', () => {
  it('holds the four routes of the spec', () => {
    expect(pagePaths).toEqual(['/', '/privacy-policy', '/terms-conditions', '/about-us']);
  });

  it('recognises only exact paths as pages', () => {
    expect(isPagePath('/about-us')).toBe(true);
    expect(isPagePath('/about-us/')).toBe(false);
    expect(isPagePath('/About-Us')).toBe(false);
  });

  it.each([
    ['/About-Us', '/about-us'],
    ['/about-us/', '/about-us'],
    ['/PRIVACY-POLICY//', '/privacy-policy'],
    ['//', '/'],
  ])('maps %s to its canonical page %s', (path, canonical) => {
    expect(canonicalPagePath(path)).toBe(canonical);
  });

  it('finds no canonical page for unknown paths, so they cannot become open redirects', () => {
    expect(canonicalPagePath('//evil.example.com/')).toBeUndefined();
    expect(canonicalPagePath('/about')).toBeUndefined();
  });
});
