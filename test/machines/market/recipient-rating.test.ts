/**
 * document 1's recipientRating: 1.0 to 5.0 with one decimal. The rating is derived from how
 * a recipient's ended attempts ended (machines/market/recipient-rating.ts); these pin the
 * range, the rounding to a tenth, and a new recipient's 5.0.
 */
import test from 'ava';
import fc from 'fast-check';
import { NEW_RECIPIENT_RATING, ratingOf } from '../../../machines/market/index.js';

test('a recipient nobody has paid yet is rated 5.0; all settled is 5.0, none settled is 1.0', (t) => {
  t.is(ratingOf(0, 0), NEW_RECIPIENT_RATING);
  t.is(NEW_RECIPIENT_RATING, 5);
  t.is(ratingOf(7, 0), 5);
  t.is(ratingOf(0, 3), 1);
  t.is(ratingOf(1, 1), 3);
  // 1 + 4 × 2/3 = 3.666…, to a tenth half up: 3.7.
  t.is(ratingOf(2, 1), 3.7);
});

test('every rating lies in 1.0 to 5.0 with at most one decimal, and more settled never rates lower', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.nat(500), fc.nat(500), (settled, unsettled) => {
        const rating = ratingOf(settled, unsettled);
        const tenths = Math.round(rating * 10);
        return rating >= 1 && rating <= 5 && Math.abs(rating * 10 - tenths) < 1e-9 && ratingOf(settled + 1, unsettled) >= rating;
      }),
    ),
  );
});
