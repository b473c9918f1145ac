package org.ssbjca.backend.portable;

/**
 * The benchmark's view of the readers' RECEIVE on PostgreSQL: the very text a reader of a per-message listener
 * sends (TOP 1, no prioritised group, no redelivery hold), for the loops that run it without the adapter around it.
 */
public final class ReaderReceive {

    private ReaderReceive() {
    }

    /**
     * @return the statement; every parameter is the queue's name. Its rows are the messages taken, or one row whose
     *         first column is null when the groups it picked were emptied meanwhile (then it is run again)
     */
    public static String perMessage() {
        return new PostgresSql().receiveNext(1, false, false);
    }
}
