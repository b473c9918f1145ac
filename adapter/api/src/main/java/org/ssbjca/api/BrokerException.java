package org.ssbjca.api;

/**
 * Thrown when a broker operation fails: a database error, an unknown or ended conversation, a closed connection,
 * an invalid argument that only the database could detect.
 *
 * <p>It is unchecked so that it rolls back the caller's container-managed transaction, like any system exception
 * thrown out of an EJB method.
 */
public class BrokerException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** @param message what failed, in words an operator can act on */
    public BrokerException(String message) {
        super(message);
    }

    /**
     * @param message what failed, in words an operator can act on
     * @param cause the underlying exception, usually a {@link java.sql.SQLException}
     */
    public BrokerException(String message, Throwable cause) {
        super(message, cause);
    }
}
