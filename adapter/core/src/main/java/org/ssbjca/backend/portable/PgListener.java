package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.IntSupplier;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.Backoff;

/**
 * Holds one PostgreSQL connection that LISTENs on the broker's channel and turns each notification (the queue name)
 * into an in-process signal. Reconnects with backoff when the connection breaks, and then wakes every reader, since
 * notifications sent while it was away are lost. Notifications this JVM's own {@link PgNotifier} sent are skipped: its
 * readers were signalled at the commit.
 * <p>
 * A connection that hears nothing for {@link #IDLE_CHECK_NANOS} is asked whether it is still alive: a connection left
 * half-open (the server gone with no FIN or RST reaching this side, as after a network failure or a failover) only
 * ever times out in its waits for notifications, and would otherwise be listened on for good while the readers fell
 * back to their poll.
 */
final class PgListener extends BackgroundTask {

    private static final AdapterLog LOG = AdapterLog.of(PgListener.class);

    /**
     * How long the connection may stay silent before it is checked: one round trip every two seconds while no
     * notification comes, none while they come, and a lost connection noticed within about
     * {@code IDLE_CHECK_NANOS + ALIVE_CHECK_SECONDS}.
     */
    private static final long IDLE_CHECK_NANOS = 2_000_000_000L;
    /** How long a silent connection may take to answer the check (also the longest a stop waits for it). */
    private static final int ALIVE_CHECK_SECONDS = 2;

    private final ConnectionSource source;
    private final QueueSignals signals;
    private final Backoff backoff = new Backoff(200, 10_000, 0.5);
    private final IntSupplier ownNotifier;

    /**
     * @param ownNotifier the backend process of this JVM's notifier (0: none), whose notifications are skipped
     */
    PgListener(ConnectionSource source, QueueSignals signals, IntSupplier ownNotifier) {
        this.source = source;
        this.signals = signals;
        this.ownNotifier = ownNotifier;
    }

    @Override
    void work() {
        while (!stopped()) {
            try (Connection c = source.open()) {
                c.setAutoCommit(true);
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN " + PortableBroker.CHANNEL);
                }
                if (backoff.failures() > 0) {
                    LOG.listenerReconnected(source.config());
                    signals.signalEverything();
                }
                backoff.reset();
                PGConnection pg = c.unwrap(PGConnection.class);
                long heardAt = System.nanoTime();
                while (!stopped()) {
                    PGNotification[] batch = pg.getNotifications(500);
                    if (batch != null && batch.length > 0) {
                        heardAt = System.nanoTime();
                        int own = ownNotifier.getAsInt();
                        for (PGNotification n : batch) {
                            if (n.getPID() != own) {
                                signals.signal(n.getParameter());
                            }
                        }
                    } else if (System.nanoTime() - heardAt > IDLE_CHECK_NANOS) {
                        if (!c.isValid(ALIVE_CHECK_SECONDS)) {
                            throw new SQLException("no answer within " + ALIVE_CHECK_SECONDS + " s");
                        }
                        heardAt = System.nanoTime();
                    }
                }
            } catch (SQLException e) {
                if (stopped()) {
                    break;
                }
                long delay = backoff.nextDelayMillis();
                if (backoff.failures() == 1) {
                    LOG.listenerLostConnection(source.config(), e.getMessage(), delay);
                } else {
                    // said once per loss at WARN; the retries of an outage at DEBUG, until SSBJCA0101
                    LOG.listenerStillLost(source.config(), e.getMessage(), backoff.failures(), delay);
                }
                signals.signalEverything();
                sleep(delay);
            }
        }
    }

    private void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
        }
    }
}
