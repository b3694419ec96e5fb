import { useId } from 'react';
import { renderPage } from '../../server/render';
import { defineIsland } from '../../shared/islands/Island';
import type { AssetManifest } from '../../server/manifest';
import type { IslandComponent } from '../../shared/islands/registry';

const manifest: AssetManifest = {
  entry: { file: '/assets/main-TEST.js', imports: [] },
  runtime: { file: '/assets/islandHydrator-TEST.js', imports: ['/assets/chunk-REACT.js', '/assets/navigation-TEST.js'] },
  runtimeModules: { hydrator: '/assets/islandHydrator-TEST.js', navigation: '/assets/navigation-TEST.js' },
  styles: ['/assets/main-TEST.css'],
  islands: { TopBar: { file: '/assets/TopBar-TEST.js', imports: ['/assets/chunk-REACT.js'] } },
};
const assets = { manifest, styles: [] };
const context = { siteUrl: 'https://guide.example.org', affiliateUrl: 'https://partner.example.net/' };

/** A stand-in island component under a registered name, to feed the runtime arbitrary props. */
function Echo({ text }: { text: string }) {
  const id = useId();
  return (
    <p id={id} className="echo">
      {text}
    </p>
  );
}
const EchoIsland = defineIsland('TopBar', Echo as unknown as IslandComponent<'TopBar'>) as unknown as (props: { text: string }) => React.ReactElement;

function propsAttribute(html: string): string {
  const match = /data-island-props="([^"]*)"/.exec(html);
  if (!match) throw new Error('no island props in page');
  return match[1]!;
}

const decode = (text: string) => text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

describe('islands on the server', () => {
  const hostile = `</script><script>alert(1)</script><!-- "quoted" 'single' & <!--island-slot:0--> \u2028`;
  const html = renderPage(<EchoIsland text={hostile} />, context, assets);

  it('serialises props so that </script>, <!-- and quotes cannot break out of the attribute', () => {
    const attribute = propsAttribute(html);
    expect(attribute).not.toMatch(/[<>"]/);
    expect(JSON.parse(decode(attribute))).toEqual({ text: hostile });
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it('renders the island as its own root with its identifierPrefix, so useId values match on hydration', () => {
    expect(html).toContain('data-island-id="i0-"');
    expect(html).toMatch(/<p id="_i0-R_[^"]*" class="echo">/);
  });

  it('cannot be tricked into filling a slot marker that came from content', () => {
    expect(html).toContain('&lt;!--island-slot:0--&gt;');
    expect(html.match(/class="echo"/g)).toHaveLength(1);
  });

  it('lists the runtime, the island chunk and the chunks they import for preloading once hydration starts', () => {
    const list = /<script type="module" src="\/assets\/main-TEST.js" data-preload="([^"]*)"/.exec(html)?.[1]?.split(' ');
    expect(list).toEqual(['/assets/chunk-REACT.js', '/assets/navigation-TEST.js', '/assets/islandHydrator-TEST.js', '/assets/TopBar-TEST.js']);
    expect(html).not.toContain('modulepreload');
  });

  it('names the two runtime modules the entry imports by URL', () => {
    expect(html).toContain('data-runtime="/assets/islandHydrator-TEST.js /assets/navigation-TEST.js"');
  });

  it('ships no script at all on a page without islands', () => {
    const staticHtml = renderPage(<p>Plain</p>, context, assets);
    expect(staticHtml).not.toContain('<script');
    expect(staticHtml).not.toContain('data-preload');
  });

  it('numbers several islands on one page in order', () => {
    const twoHtml = renderPage(
      <>
        <EchoIsland text="one" />
        <EchoIsland text="two" />
      </>,
      context,
      assets,
    );
    expect([...twoHtml.matchAll(/data-island-id="([^"]+)"/g)].map((match) => match[1])).toEqual(['i0-', 'i1-']);
    expect(twoHtml).toMatch(/data-island-id="i1-"[^>]*><p id="_i1-R_[^"]*" class="echo">two<\/p>/);
  });
});
