/**
 * Why a stored document cannot be opened: a type of its own, which the sealing (sealed.ts) answers and the
 * store (store-core.ts) keeps with a document set aside, so that the two do not import each other.
 */
export type Unopenable = { reason: "damaged"; why: string } | { reason: "wrong_key"; why: string };
