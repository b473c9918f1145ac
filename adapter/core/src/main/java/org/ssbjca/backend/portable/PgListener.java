package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.Backoff;

/**
 * Holds one PostgreSQL connection that LISTENs on the broker's channel and turns each notification (the queue name)
 * into an in-process signal. Reconnects with backoff when the connection breaks, and then wakes every reader, since
 * notifications sent while it was away are lost.
 */
final class PgListener implements Runnable {

    private static final AdapterLog LOG = AdapterLog.of(PgListener.class);

    private final ConnectionSource source;
    private final QueueSignals signals;
    private final Backoff backoff = new Backoff(200, 10_000, 0.5);
    private volatile boolean stopped;
    private volatile Thread thread;

    PgListener(ConnectionSource source, QueueSignals signals) {
        this.source = source;
        this.signals = signals;
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        while (!stopped) {
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
                while (!stopped) {
                    PGNotification[] batch = pg.getNotifications(500);
                    if (batch != null) {
                        for (PGNotification n : batch) {
                            signals.signal(n.getParameter());
                        }
                    }
                }
            } catch (SQLException e) {
                if (stopped) {
                    break;
                }
                long delay = backoff.nextDelayMillis();
                LOG.listenerLostConnection(source.config(), e.getMessage(), delay);
                signals.signalEverything();
                sleep(delay);
            }
        }
    }

    void stop() {
        stopped = true;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    private void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
        }
    }
}
