import { spacedLetterEdits } from '@/lib/moderation/normalise/join-spaced-letters';
import { applyEdits } from '@/lib/moderation/normalise/text-edits';
for (const t of ['y o u a r e a n i d i o t', 'I w.i.l.l k.i.l.l y.o.u', 'I w-i-l-l k_i_l_l y/o/u', 'Y O U   A R E   S T U P I D', 'J. R. R. Tolkien wrote', 'a b c d', 'w o m e n a r e t o o s t u p i d', 'k 1 l l y 0 u', 'U.S.A. is big', 'f u c k', 'i w i l l f i n d w h e r e y o u l i v e a n d k i l l y o u', 'p s i love you', 'go k y s', 'u n a l i v e y o u r s e l f'])
  console.log(JSON.stringify(t), '->', JSON.stringify(applyEdits(t, spacedLetterEdits(t)).text));
