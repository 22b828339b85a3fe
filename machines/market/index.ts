/** machines/market: the market's figures as pure functions of what the actor layer reads: a recipient's rating. */
export { NEW_RECIPIENT_RATING, ratingOf } from './recipient-rating.js';
