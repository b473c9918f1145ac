package org.ssbjca.backend;

import org.ssbjca.api.BrokerException;

/**
 * A RECEIVE ended by a cancellation (a reader woken or stopped while it read the RECEIVE's result, or the driver's
 * query timeout) at a point where it may already have taken messages that it did not return. They are deleted in the
 * caller's transaction, which a cancelled batch leaves open and committable: the transaction must roll back, which
 * puts them back on the queue, and never commit as a turn that received nothing.
 *
 * <p>Readers see it when they are woken or stopped (only their sessions are cancelled), and any RECEIVE that tries
 * the adapter's prioritised groups when one attempt runs into its query timeout (an application's through the
 * connection factory too). The readers' delivery modes roll back on any failure of the RECEIVE; an application that
 * catches it must not commit its transaction.
 */
public final class ReceiveCancelledException extends BrokerException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what was cancelled and when, ending with what the caller must do
     * @param cause the driver's exception
     */
    public ReceiveCancelledException(String message, Throwable cause) {
        super(message, cause);
    }
}
