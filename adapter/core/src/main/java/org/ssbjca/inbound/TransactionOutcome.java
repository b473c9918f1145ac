package org.ssbjca.inbound;

/** How a reader's connection saw its last transaction end ({@link ReaderConnection#takeOutcome}). */
public enum TransactionOutcome {
    /** The branch (or the local transaction) committed. */
    COMMITTED,
    /** The branch (or the local transaction) rolled back, the adapter's or the container's doing. */
    ROLLED_BACK,
    /**
     * No end seen since the last take: the reader's branch took no part in the transaction, or it never completed.
     * The delivery's work may have committed elsewhere.
     */
    NOT_SEEN
}
