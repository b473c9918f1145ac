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
final class FailureReports {

    private static final Pattern CONNECTION_ID = Pattern.compile("ClientConnectionId: ?[0-9A-Fa-f-]{36}");

    private final AtomicReference<String> reported = new AtomicReference<>();
    private final AtomicBoolean ignoredTimeoutReported = new AtomicBoolean();
    /** The figures of the last wait over a transaction timeout said: the timeout's seconds, then the wait's ms. */
    private final AtomicLong waitOverTimeoutReported = new AtomicLong(-1);

    /**
     * @param failure what a reader's turn failed with
     * @return whether it is news: the first failure since a turn succeeded, or another cause than the last reported
     */
    boolean firstReport(String failure) {
        String cause = cause(failure);
        return !Objects.equals(reported.getAndSet(cause), cause);
    }

    /** A reader's turn succeeded: the next failure is news again. */
    void recovered() {
        if (reported.get() != null) {
            reported.set(null);
        }
    }

    /** @return true the first time only: a transaction timeout the driver ignores is said once per activation */
    boolean firstIgnoredTimeout() {
        return ignoredTimeoutReported.compareAndSet(false, true);
    }

    /**
     * @param waitMillis the activation's {@code waitTimeout}, 100 to 600000 ms
     * @param timeoutSeconds the deliveries' transaction timeout it is over half of
     * @return true the first time these figures are seen: said once per activation, and again only when they change
     *     (a WaitTimeout set over JMX, another {@code default-timeout})
     */
    boolean firstWaitOverTimeout(long waitMillis, int timeoutSeconds) {
        long figures = (long) timeoutSeconds << 32 | waitMillis;
        return waitOverTimeoutReported.getAndSet(figures) != figures;
    }

    /**
     * @return the failure as a cause: its text without what differs from one connection to the next (mssql-jdbc
     *     appends {@code ClientConnectionId:<uuid>}, a new one for each connection a reader opens)
     */
    static String cause(String failure) {
        return failure == null ? null : CONNECTION_ID.matcher(failure).replaceAll("ClientConnectionId:");
    }
}
