import { preprocess } from '@/lib/moderation/preprocess';
import { mapCleanToVisible } from '@/lib/moderation/rules/map-to-visible';
for (const t of ['I w.i.l.l k.i.l.l y.o.u now', 'Wooomeeen aaareee toooooo stuuupiiid', '<img src=x onerror=alert(1)> you worthless idiot <script>alert(1)</script>', 'k🔪ill', 'unalive', 'I.w.i.l.l.k.i.l.l.y.o.u.i.f.y.o.u.c.o.m.e.n.e.a.r.m.y.h.o.u.s.e.a.g.a.i.n', '1 w1ll k1ll y0u', 'you 🤡 are 🤡 an 🤡 idiot', 'good too cooperate', 'HELLO 😀 a@b.com']) {
  const p = preprocess(t);
  console.log(JSON.stringify(t), '->', JSON.stringify(p.clean), JSON.stringify(p.cleanEdits));
}
const p = preprocess('I w.i.l.l k.i.l.l y.o.u now');
const at = p.clean.indexOf('kill');
console.log(mapCleanToVisible(p)(at, at + 4));
