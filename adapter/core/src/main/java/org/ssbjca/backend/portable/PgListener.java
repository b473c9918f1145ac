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
 */
final class PgListener extends BackgroundTask {

    private static final AdapterLog LOG = AdapterLog.of(PgListener.class);

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
                while (!stopped()) {
                    PGNotification[] batch = pg.getNotifications(500);
                    if (batch != null) {
                        int own = ownNotifier.getAsInt();
                        for (PGNotification n : batch) {
                            if (n.getPID() != own) {
                                signals.signal(n.getParameter());
                            }
                        }
                    }
                }
            } catch (SQLException e) {
                if (stopped()) {
                    break;
                }
                long delay = backoff.nextDelayMillis();
                LOG.listenerLostConnection(source.config(), e.getMessage(), delay);
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
