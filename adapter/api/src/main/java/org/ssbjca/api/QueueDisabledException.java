package org.ssbjca.api;

/**
 * Thrown by RECEIVE and GET CONVERSATION GROUP on a queue whose status is OFF. Service Broker disables a queue
 * after five rolled-back RECEIVE transactions in a row when poison message handling is on, or an administrator
 * disabled it; {@code ALTER QUEUE ... WITH STATUS = ON} enables it again. On the portable schema (H2, PostgreSQL) a
 * queue is disabled only by hand, in {@code ssb.service_queue.is_receive_enabled}, and the message names the
 * {@code UPDATE} that enables it.
 */
public class QueueDisabledException extends BrokerException {

    private static final long serialVersionUID = 1L;

    private final String queue;

    /**
     * A queue of SQL Server: the message names {@code ALTER QUEUE ... WITH STATUS = ON}.
     *
     * @param queue the disabled queue
     * @param cause the database's error, or null
     */
    public QueueDisabledException(String queue, Throwable cause) {
        super("queue " + queue + " is disabled (STATUS = OFF): enable it with ALTER QUEUE ... WITH STATUS = ON",
                cause);
        this.queue = queue;
    }

    /**
     * @param queue the disabled queue
     * @param enable the statement that enables it on its database, named in the message
     * @param cause the database's error, or null
     */
    public QueueDisabledException(String queue, String enable, Throwable cause) {
        super("queue " + queue + " is disabled: enable it with " + enable, cause);
        this.queue = queue;
    }

    /** Returns the disabled queue's name. */
    public String queue() {
        return queue;
    }
}
