import { inPlaceTarget, type ClickFacts, type LinkFacts } from '../../client/navigation';

const click: ClickFacts = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false, defaultPrevented: false };
const link = (href: string, extra: Partial<LinkFacts> = {}): LinkFacts => ({ href, target: '', download: false, ...extra });
const onAbout = new URL('https://guide.example.org/about-us');
const onHome = new URL('https://guide.example.org/');

describe('inPlaceTarget', () => {
  it.each(['/', '/privacy-policy', '/terms-conditions', '/about-us', 'https://guide.example.org/privacy-policy'])('navigates in place to the page %s', (href) => {
    expect(inPlaceTarget(click, link(href), onAbout)?.pathname).toBe(new URL(href, onAbout).pathname);
  });

  it('navigates in place to a home section from another page, keeping the hash', () => {
    expect(inPlaceTarget(click, link('/#faq'), onAbout)?.href).toBe('https://guide.example.org/#faq');
  });

  it('leaves same-page section links to the browser', () => {
    expect(inPlaceTarget(click, link('#faq'), onHome)).toBeNull();
    expect(inPlaceTarget(click, link('/#faq'), onHome)).toBeNull();
  });

  it.each([
    ['Ctrl', { ctrlKey: true }],
    ['Cmd', { metaKey: true }],
    ['Shift', { shiftKey: true }],
    ['Alt', { altKey: true }],
    ['the middle button', { button: 1 }],
    ['an already handled click', { defaultPrevented: true }],
  ])('leaves a click with %s to the browser', (_name, facts) => {
    expect(inPlaceTarget({ ...click, ...facts }, link('/about-us'), onHome)).toBeNull();
  });

  it('leaves links with a target or a download to the browser', () => {
    expect(inPlaceTarget(click, link('/about-us', { target: '_blank' }), onHome)).toBeNull();
    expect(inPlaceTarget(click, link('/about-us', { download: true }), onHome)).toBeNull();
    expect(inPlaceTarget(click, link('/about-us', { target: '_self' }), onHome)?.pathname).toBe('/about-us');
  });

  it('leaves outward links, other paths and files to the browser', () => {
    expect(inPlaceTarget(click, link('https://partner.example.net/join'), onHome)).toBeNull();
    expect(inPlaceTarget(click, link('http://guide.example.org/about-us'), onHome)).toBeNull();
    expect(inPlaceTarget(click, link('/robots.txt'), onHome)).toBeNull();
    expect(inPlaceTarget(click, link('/no-such-page'), onHome)).toBeNull();
    expect(inPlaceTarget(click, link('mailto:someone@example.com'), onHome)).toBeNull();
  });
});
