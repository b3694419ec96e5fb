import request from 'supertest';
import { pageLayouts } from '../../server/leaves/pageLayout';
import { createStatsStores } from '../../server/statsStores';
import { reachAttribute } from '../../shared/leaveBeacon';
import { pagePaths } from '../../shared/routes';
import { useTestDatabase } from '../support/engines';
import { parseHtml } from '../support/html';
import { createTestApp } from '../support/testApp';

/**
 * server/leaves/pageLayout.ts lists what each page holds for the leave reports; the pages themselves mark
 * it (data-reach, data-placement). The lists and the pages must agree, or a real report would be refused.
 */
describe('each page as the leave reports know it', () => {
  const database = useTestDatabase('sqlite');

  it.each(pagePaths)('%s marks the sections pageLayout lists, in its order, and holds only its placements', async (path) => {
    const app = await createTestApp({}, { stores: createStatsStores(database.opened.database) });
    const page = parseHtml((await request(app).get(path).expect(200)).text);
    const marked = page.all(`[${reachAttribute}]`).map((element) => element.attr(reachAttribute));
    const { sections, placements } = pageLayouts[path];
    // A text page's sections shown only under some settings may be missing; none may be added or reordered.
    expect(marked).toEqual(sections.filter((id) => marked.includes(id)));
    expect(marked.length).toBeGreaterThanOrEqual(path === '/' ? sections.length : 1);
    const linked = new Set(page.all('main [data-placement]').map((element) => element.attr('data-placement')));
    expect([...linked].sort()).toEqual([...placements].sort());
  });
});
