import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { load, type CheerioAPI } from 'cheerio';
import { useId } from 'react';
import request from 'supertest';
import { writeIslandRegistry } from '../../build';
import { parseLoadConditions } from '../../client/islands/loadConditions';
import { readManifest, type AssetManifest } from '../../server/manifest';
import { distDir } from '../../server/lib/paths';
import { renderPage } from '../../server/render';
import { reviews } from '../../shared/content/home';
import { generatedImages } from '../../shared/content/images.generated';
import { clientAttributes } from '../../shared/islands/clientAttributes';
import { formatLoadConditions, type LoadCondition, type LoadConditions } from '../../shared/islands/formatLoadConditions';
import { Island, IslandMarker } from '../../shared/islands/Island';
import { islandRegistry } from '../../shared/islands/registry.generated';
import type { PageContextValue } from '../../shared/pageContext';
import { useTempDir } from '../support/tempDir';
import { createTestApp } from '../support/testApp';

const manifest: AssetManifest = {
  entry: { file: '/assets/main-TEST.js', imports: [] },
  runtime: { file: '/assets/hydrateIsland-TEST.js', imports: ['/assets/chunk-REACT.js'] },
  runtimeModules: { hydrator: '/assets/hydrateIsland-TEST.js', navigation: '/assets/navigation-TEST.js' },
  styles: ['/assets/main-TEST.css'],
  islands: {
    Echo: { file: '/assets/Echo-TEST.js', imports: ['/assets/chunk-REACT.js'] },
    TopBar: { file: '/assets/TopBar-TEST.js', imports: ['/assets/chunk-REACT.js', '/assets/chunk-SITE.js'] },
  },
};
const assets = { manifest, styles: [] };
const context: PageContextValue = { siteUrl: 'https://guide.example.org', affiliateUrl: 'https://partner.example.net/' };
const counting: PageContextValue = { ...context, clickCounting: { endpoint: '/api/clicks', viewEndpoint: '/api/views', leaveEndpoint: '/api/leaves', retentionDays: 400 } };

/** A stand-in island component, to feed the runtime arbitrary props. */
function Echo({ text }: { text: string }) {
  const id = useId();
  return (
    <p id={id} className="echo">
      {text}
    </p>
  );
}
const EchoIsland = ({ text }: { text: string }) => <IslandMarker name="Echo" component={Echo} props={{ text }} load="visible" />;

const parse = (html: string): CheerioAPI => load(html);
const entryScript = ($: CheerioAPI) => $(`script[type="module"][src]`);

describe('islands on the server', () => {
  const hostile = `</script><script>alert(1)</script><!-- "quoted" 'single' & <!--island-slot:0--> \u2028`;
  const html = renderPage(<EchoIsland text={hostile} />, context, assets);
  const $ = parse(html);

  it('serialises props so that </script>, <!-- and quotes cannot break out of the attribute', () => {
    const raw = /data-island-props="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(raw).not.toMatch(/[<>"]/);
    expect(JSON.parse($(`[${clientAttributes.island}]`).attr(clientAttributes.islandProps)!)).toEqual({ text: hostile });
    expect($('script')).toHaveLength(1);
  });

  it('renders the island as its own root with its identifierPrefix, so useId values match on hydration', () => {
    const island = $(`[${clientAttributes.island}="Echo"]`);
    expect(island.attr(clientAttributes.islandId)).toBe('i0-');
    expect(island.children('p.echo').attr('id')).toMatch(/^_i0-R_/);
  });

  it('cannot be tricked into filling a slot marker that came from content', () => {
    expect(html).toContain('&lt;!--island-slot:0--&gt;');
    expect($('.echo')).toHaveLength(1);
  });

  it('writes on the island its chunk, the chunks that chunk imports and its loading conditions', () => {
    const island = $(`[${clientAttributes.island}="Echo"]`);
    expect(island.attr(clientAttributes.islandSrc)).toBe('/assets/Echo-TEST.js');
    expect(island.attr(clientAttributes.islandPreload)).toBe('/assets/chunk-REACT.js');
    expect(island.attr(clientAttributes.islandLoad)).toBe('visible');
    expect(island.attr(clientAttributes.hydrated)).toBeUndefined();
  });

  it('names the runtime, its chunks and the navigation module on the entry script, and preloads nothing before the page needs it', () => {
    const script = entryScript($);
    expect(script.attr('src')).toBe('/assets/main-TEST.js');
    expect(script.attr(clientAttributes.runtime)).toBe('/assets/hydrateIsland-TEST.js');
    expect(script.attr(clientAttributes.preload)).toBe('/assets/chunk-REACT.js');
    expect(script.attr(clientAttributes.navigation)).toBe('/assets/navigation-TEST.js');
    expect($('link[rel="modulepreload"]')).toHaveLength(0);
  });

  it('numbers several islands on one page in order', () => {
    const two = parse(
      renderPage(
        <>
          <EchoIsland text="one" />
          <EchoIsland text="two" />
        </>,
        context,
        assets,
      ),
    );
    const islands = two(`[${clientAttributes.island}]`);
    expect(islands.map((_index, element) => two(element).attr(clientAttributes.islandId)).get()).toEqual(['i0-', 'i1-']);
    expect(islands.eq(1).children('p.echo').text()).toBe('two');
    expect(islands.eq(1).children('p.echo').attr('id')).toMatch(/^_i1-R_/);
  });

  it('stops with a clear message when the build has no chunk for an island', () => {
    const Unbuilt = () => <IslandMarker name="Unbuilt" component={Echo} props={{ text: '' }} load="load" />;
    expect(() => renderPage(<Unbuilt />, context, assets)).toThrow('The build has no chunk for the Unbuilt island: run "npm run build"');
  });
});

describe('the entry script', () => {
  it('is on a page without islands while click counting is on, with the click, view and leave endpoints', () => {
    const script = entryScript(parse(renderPage(<p>Plain</p>, counting, assets)));
    expect(script).toHaveLength(1);
    expect(script.attr(clientAttributes.clickEndpoint)).toBe('/api/clicks');
    expect(script.attr(clientAttributes.viewEndpoint)).toBe('/api/views');
    expect(script.attr(clientAttributes.leaveEndpoint)).toBe('/api/leaves');
    expect(script.attr(clientAttributes.subIdParam)).toBeUndefined();
  });

  it('names the sub-ID parameter while counting is on and one is set', () => {
    const withSubId: PageContextValue = { ...context, clickCounting: { ...counting.clickCounting!, subIdParam: 'subid' } };
    expect(entryScript(parse(renderPage(<p>Plain</p>, withSubId, assets))).attr(clientAttributes.subIdParam)).toBe('subid');
  });

  it('is on a page with islands while click counting is off, without a click, view or leave endpoint or sub-ID parameter', () => {
    const script = entryScript(parse(renderPage(<EchoIsland text="x" />, { ...context, affiliateSubIdParam: 'subid' }, assets)));
    expect(script).toHaveLength(1);
    expect(script.attr(clientAttributes.clickEndpoint)).toBeUndefined();
    expect(script.attr(clientAttributes.viewEndpoint)).toBeUndefined();
    expect(script.attr(clientAttributes.leaveEndpoint)).toBeUndefined();
    expect(script.attr(clientAttributes.subIdParam)).toBeUndefined();
  });

  it('is absent from a page without islands while click counting is off: such a page ships no script', () => {
    const html = renderPage(<p>Plain</p>, context, assets);
    expect(parse(html)('script')).toHaveLength(0);
  });
});

describe('the island registry', () => {
  const temp = useTempDir();
  /** A project holding the given files under shared/islands/. */
  const projectWith = (files: readonly string[]) => {
    for (const file of files) {
      mkdirSync(path.dirname(path.join(temp.dir(), 'shared/islands', file)), { recursive: true });
      writeFileSync(path.join(temp.dir(), 'shared/islands', file), '');
    }
    return temp.dir();
  };
  const registryIn = (root: string) => readFileSync(path.join(root, 'shared/islands/registry.generated.ts'), 'utf8');

  it('is made by the build from the folders: each one an island, named after its folder, its component the file of that name', () => {
    const root = projectWith(['Island.tsx', 'Toast/Toast.tsx', 'Toast/toastState.ts', 'Gallery/Gallery.tsx']);
    expect(writeIslandRegistry(root)).toEqual({ Gallery: 'shared/islands/Gallery/Gallery.tsx', Toast: 'shared/islands/Toast/Toast.tsx' });
    expect(registryIn(root)).toContain(["import * as Gallery from './Gallery/Gallery';", "import * as Toast from './Toast/Toast';", '', 'export const islandRegistry = { Gallery, Toast };'].join('\n'));
  });

  it.each([
    ['holds no component named after it', 'Toast/index.tsx', 'shared/islands/Toast/ has no Toast.tsx'],
    ['is not named as a component is', 'helpers/helpers.tsx', "shared/islands/helpers/: an island's folder is named after its component, in PascalCase"],
  ])('stops the build, naming the folder, when a folder %s', (_case, file, message) => {
    expect(() => writeIslandRegistry(projectWith([file]))).toThrow(message);
  });

  it("writes each island's default condition, unless the page names another", () => {
    const $ = parse(
      renderPage(
        <>
          <Island name="TopBar" props={{ onHome: false }} />
          <Island name="TopBar" props={{ onHome: true }} load={['idle', 'visible']} />
        </>,
        context,
        assets,
      ),
    );
    const loads = $(`[${clientAttributes.island}="TopBar"]`).map((_index, element) => $(element).attr(clientAttributes.islandLoad)).get();
    expect(loads).toEqual([islandRegistry.TopBar.defaultLoad, 'idle visible']);
    expect($(`[${clientAttributes.island}="TopBar"]`).first().attr(clientAttributes.islandPreload)).toBe('/assets/chunk-REACT.js /assets/chunk-SITE.js');
  });
});

describe('loading conditions as the server writes them and the browser reads them', () => {
  it.each<[LoadConditions, string, LoadCondition[][]]>([
    ['visible', 'visible', [['visible']]],
    [['idle', 'visible'], 'idle visible', [['idle', 'visible']]],
    [{ anyOf: ['interaction', ['idle', 'wide']] }, 'interaction | idle wide', [['interaction'], ['idle', 'wide']]],
  ])('writes %j as "%s" and reads it back', (conditions, written, read) => {
    expect(formatLoadConditions(conditions)).toBe(written);
    expect(parseLoadConditions(written)).toEqual({ alternatives: read });
  });

  it('names the unknown condition in an attribute it cannot read', () => {
    expect(parseLoadConditions('idle hover')).toEqual({ unknown: 'hover' });
    expect(parseLoadConditions('interaction | idle hover')).toEqual({ unknown: 'hover' });
  });
});

describe('the islands as built and served', () => {
  const built = readManifest(distDir);
  const asset = (url: string) => readFileSync(path.join(distDir, url), 'utf8');

  it('builds one chunk per island folder', () => {
    expect(Object.keys(built.islands).sort()).toEqual(Object.keys(islandRegistry).sort());
  });

  it("keeps the carousel's chunk free of every image but its own: its props carry its six images", () => {
    const chunk = asset(built.islands.ReviewCarousel!.file);
    for (const variant of generatedImages.hero.avif) expect(chunk).not.toContain(variant.src);
    expect(chunk).not.toContain('/images/');
  });

  it('gives the carousel on the home page its own six images in its props, and the top bar the conditions of each page', async () => {
    const app = await createTestApp();
    const home = parse((await request(app).get('/').expect(200)).text);
    const carousel = home(`[${clientAttributes.island}="ReviewCarousel"]`);
    const props = JSON.parse(carousel.attr(clientAttributes.islandProps)!) as { reviews: { slides: { image: unknown }[] } };
    expect(props.reviews.slides.map((slide) => slide.image)).toEqual(reviews.slides.map((slide) => generatedImages[slide.image]));
    expect(carousel.attr(clientAttributes.islandLoad)).toBe('visible');
    expect(home(`[${clientAttributes.island}="TopBar"]`).attr(clientAttributes.islandLoad)).toBe('interaction | idle wide');
    const about = parse((await request(app).get('/about-us').expect(200)).text);
    expect(about(`[${clientAttributes.island}="TopBar"]`).attr(clientAttributes.islandLoad)).toBe('interaction');
  });
});
