package org.ssbjca.inbound;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/**
 * Which of an activation's reader failures are news, so that a cause is logged at WARN once rather than at every
 * retry of every reader (a queue or table declared after the bean started, a database down for an hour), and that
 * a transaction timeout the driver ignores, or a wait over half the deliveries' transaction timeout, is said once.
 * Shared by its readers.
 */
public final class FailureReports {

    private static final Pattern CONNECTION_ID = Pattern.compile("ClientConnectionId: ?[0-9A-Fa-f-]{36}");

    private final AtomicReference<String> reported = new AtomicReference<>();
    private final AtomicBoolean ignoredTimeoutReported = new AtomicBoolean();
    /**
     * The figures a transacted reader's turn last saw, its wait in range or over half the transaction timeout: the
     * timeout's seconds, whether it is the activation's cap, then the wait's ms; -1 before the first turn.
     */
    private final AtomicLong waitFigures = new AtomicLong(-1);

    /**
     * Returns whether it is news: the first failure since a turn succeeded, or another cause than the last reported.
     *
     * @param failure what a reader's turn failed with
     */
    public boolean firstReport(String failure) {
        String cause = cause(failure);
        return !Objects.equals(reported.getAndSet(cause), cause);
    }

    /** A reader's turn succeeded: the next failure is news again. */
    public void recovered() {
        if (reported.get() != null) {
            reported.set(null);
        }
    }

    /** Returns true the first time only: a transaction timeout the driver ignores is said once per activation. */
    public boolean firstIgnoredTimeout() {
        return ignoredTimeoutReported.compareAndSet(false, true);
    }

    /**
     * Notes the figures of a transacted reader's turn, whatever they are, so that a wait over half the transaction
     * timeout ({@code SSBJCA0017}) is said once per activation and again whenever the figures change, also back to
     * ones said before (a WaitTimeout set over JMX into range, then back over it). The usual turn reads one field.
     *
     * @param waitMillis the activation's {@code waitTimeout}, 100 to 600000 ms
     * @param timeoutSeconds the delivery branch's timeout, 0 for none
     * @param capped whether that timeout is the activation's {@code transactionTimeout} rather than the transaction
     *     manager's
     * @return whether these figures differ from the last that a reader of the activation noted
     */
    boolean waitFiguresChanged(long waitMillis, int timeoutSeconds, boolean capped) {
        long figures = (long) timeoutSeconds << 32 | (capped ? 1L << 31 : 0) | waitMillis;
        return waitFigures.get() != figures && waitFigures.getAndSet(figures) != figures;
    }

    /**
     * Returns the failure as a cause: its text without what differs from one connection to the next (mssql-jdbc appends
     * {@code ClientConnectionId:<uuid>}, a new one for each connection a reader opens).
     */
    static String cause(String failure) {
        return failure == null ? null : CONNECTION_ID.matcher(failure).replaceAll("ClientConnectionId:");
    }
}
