import { adminCss } from '../../server/admin/adminStyles';
import { cssToStyleAttributes, parseStylesheet } from '../../server/digest/cssToStyleAttributes';

describe('cssToStyleAttributes', () => {
  it('writes a type rule into every element of that type', () => {
    expect(cssToStyleAttributes('<p>a</p><p>b</p>', 'p{color:red}')).toBe('<p style="color:red">a</p><p style="color:red">b</p>');
  });

  it('matches classes, compounds and descendants, and leaves other elements alone', () => {
    const css = '.muted{color:grey} th.day{white-space:nowrap} .funnel .figure{font-weight:700}';
    const html = '<ol class="funnel"><li><span class="figure">1</span><span class="muted">x</span></li></ol><span class="figure">2</span><table><tr><th class="day">d</th><td class="day">e</td></tr></table>';
    expect(cssToStyleAttributes(html, css)).toBe(
      '<ol class="funnel"><li><span class="figure" style="font-weight:700">1</span><span class="muted" style="color:grey">x</span></li></ol><span class="figure">2</span><table><tr><th class="day" style="white-space:nowrap">d</th><td class="day">e</td></tr></table>',
    );
  });

  it('orders by specificity, then by the order of the rules', () => {
    const css = 'td.x{color:blue} td{color:red;padding:1px} td{color:green}';
    expect(cssToStyleAttributes('<td class="x">a</td><td>b</td>', css)).toBe('<td class="x" style="padding:1px;color:blue">a</td><td style="padding:1px;color:green">b</td>');
  });

  it('knows a first child among element siblings, past void elements', () => {
    const css = 'td:first-child{text-align:left}';
    expect(cssToStyleAttributes('<tr><td>a</td><td>b</td></tr><p><br/><td>c</td></p>', css)).toBe(
      '<tr><td style="text-align:left">a</td><td>b</td></tr><p><br/><td>c</td></p>',
    );
  });

  it('applies the universal selector to the body, never to the head', () => {
    const html = '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>T</title></head><body><div>x</div></body></html>';
    expect(cssToStyleAttributes(html, '*{box-sizing:border-box}')).toBe(
      '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>T</title></head><body style="box-sizing:border-box"><div style="box-sizing:border-box">x</div></body></html>',
    );
  });

  it('puts an element’s own style after the stylesheet’s, and escapes quotes in values', () => {
    const css = 'p{font:16px "Segoe UI",sans-serif;color:red}';
    expect(cssToStyleAttributes('<p class="a" style="color:blue">x</p>', css)).toBe(`<p class="a" style="font:16px 'Segoe UI',sans-serif;color:red;color:blue">x</p>`);
  });

  it('a later shorthand or longhand keeps its place after the earlier one', () => {
    expect(cssToStyleAttributes('<td>x</td>', 'td{border-bottom:1px solid;border:0}')).toBe('<td style="border-bottom:1px solid;border:0">x</td>');
    expect(cssToStyleAttributes('<td>x</td>', 'td{border:0} td{border-bottom:1px solid}')).toBe('<td style="border:0;border-bottom:1px solid">x</td>');
  });

  it('names what it cannot apply and applies the rest', () => {
    const { skipped, rules } = parseStylesheet('a:hover{color:red} @media (max-width:35rem){.x{color:blue}} #id{color:red} p > a{color:red} .y,b[href]{color:green}');
    expect(skipped).toEqual(['a:hover', '@media (max-width:35rem)', '#id', 'p > a', 'b[href]']);
    expect(rules).toHaveLength(1);
    expect(cssToStyleAttributes('<p class="y">x</p><div class="x">y</div>', 'a:hover{color:red} @media (max-width:35rem){.x{color:blue}} .y{color:green}')).toBe(
      '<p class="y" style="color:green">x</p><div class="x">y</div>',
    );
  });

  it('leaves text, attributes with ">" in them and comments as they were', () => {
    const html = '<a href="/admin?from=1&amp;to=2" title="a &gt; b">x &lt; y</a><!-- <p>no</p> -->';
    expect(cssToStyleAttributes(html, 'a{color:red} p{color:blue}')).toBe('<a href="/admin?from=1&amp;to=2" title="a &gt; b" style="color:red">x &lt; y</a><!-- <p>no</p> -->');
  });

  it('applies every rule of the admin stylesheet but its focus ring and its phone layout, which an e-mail has no use for', () => {
    expect(parseStylesheet(adminCss).skipped).toEqual([':focus-visible', '@media (max-width:35rem)']);
  });
});
