package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.Backoff;

/**
 * Sends PostgreSQL notifications for queues that received messages, after the sending transaction committed, on a
 * connection of its own. NOTIFY cannot be part of the sending transaction: PostgreSQL refuses to PREPARE a
 * transaction that executed NOTIFY, and a SEND in a two-phase XA transaction must be preparable. A notification lost
 * while the connection is down only delays the readers of another JVM until their fallback poll.
 */
final class PgNotifier implements Runnable {

    private static final AdapterLog LOG = AdapterLog.of(PgNotifier.class);
    private static final String NOTIFY = "SELECT pg_notify('" + PortableBroker.CHANNEL + "', ?)";

    private final ConnectionSource source;
    private final BlockingQueue<String> pending = new LinkedBlockingQueue<>();
    private final Backoff backoff = new Backoff(200, 10_000, 0.5);
    private volatile boolean stopped;
    private Connection connection;

    PgNotifier(ConnectionSource source) {
        this.source = source;
    }

    /** @param queues queues whose messages were just committed */
    void committed(Collection<String> queues) {
        if (!stopped) {
            pending.addAll(queues);
        }
    }

    @Override
    public void run() {
        try {
            while (!stopped) {
                String first = pending.poll(500, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                List<String> batch = new ArrayList<>();
                batch.add(first);
                pending.drainTo(batch);
                send(new LinkedHashSet<>(batch));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            close();
        }
    }

    private void send(Set<String> queues) throws InterruptedException {
        try {
            if (connection == null) {
                connection = source.open();
                connection.setAutoCommit(true);
            }
            try (PreparedStatement ps = connection.prepareStatement(NOTIFY)) {
                for (String queue : queues) {
                    ps.setString(1, queue);
                    ps.execute();
                }
            }
            backoff.reset();
        } catch (SQLException e) {
            close();
            long delay = backoff.nextDelayMillis();
            LOG.notificationsNotSent(queues, e.getMessage(), delay);
            Thread.sleep(delay);
        }
    }

    void stop() {
        stopped = true;
    }

    private void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // discarded
            }
            connection = null;
        }
    }
}
