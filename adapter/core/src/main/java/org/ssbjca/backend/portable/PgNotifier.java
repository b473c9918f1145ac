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
import java.util.concurrent.locks.LockSupport;
import org.postgresql.PGConnection;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.Backoff;

/**
 * Sends PostgreSQL notifications for queues that received messages, after the sending transaction committed, on a
 * connection of its own. NOTIFY cannot be part of the sending transaction: PostgreSQL refuses to PREPARE a
 * transaction that executed NOTIFY, and a SEND in a two-phase XA transaction must be preparable. A notification lost
 * while the connection is down only delays the readers of another JVM until their fallback poll.
 * <p>
 * Rounds of notifications are at least {@link #INTERVAL_NANOS} apart: the commits of the meantime are announced
 * together, one NOTIFY per queue (each NOTIFY is a transaction of its own and wakes every listening session). Readers
 * of this JVM do not wait for it (they are signalled at the commit), and readers of another JVM that are busy
 * do not wait at all: the interval delays only an idle remote reader, by at most that long.
 * <p>
 * A round also starts no sooner than {@link #SETTLE_NANOS} after the commit that made the notifier busy again: the
 * reader of this JVM signalled at that commit runs its RECEIVE meanwhile, and the round's statements do not compete
 * with it for the database's CPU (docs/design/notifier-session.md).
 */
final class PgNotifier extends BackgroundTask {

    private static final AdapterLog LOG = AdapterLog.of(PgNotifier.class);
    private static final String NOTIFY = "SELECT pg_notify('" + PortableBroker.CHANNEL + "', ?)";

    private final ConnectionSource source;
    private final PostgresSql sql;
    private final org.ssbjca.backend.QueueSignals signals;
    /** Queues to notify (String) and groups to give a turn again if parked with messages (UUID), in commit order. */
    private final BlockingQueue<Object> pending = new LinkedBlockingQueue<>();
    /** The shortest time from one round of notifications to the next. */
    static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /** The shortest time from a commit that finds the notifier idle to the round that announces it. */
    static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * How long the notifier waits for each answer of the database before it gives its connection up: its statements
     * never wait for a lock (the unpark skips locked groups) and take well under a millisecond, and a connection left
     * half-open by a network failure or a failover would otherwise hold the notifier (and every later commit in
     * {@link #pending}) for good. Below {@link PortableBroker#STOP_WAIT_MILLIS}, so that a stop waits it out.
     */
    static final int NETWORK_TIMEOUT_MILLIS = 3_000;
    private final Backoff backoff = new Backoff(200, 10_000, 0.5);
    private Connection connection;
    /** The backend process of {@link #connection}, whose notifications the listener of this JVM ignores; 0: none. */
    private volatile int backendPid;
    /** When the last round ended ({@link System#nanoTime}). */
    private long lastRound;

    PgNotifier(ConnectionSource source, PostgresSql sql, org.ssbjca.backend.QueueSignals signals) {
        this.source = source;
        this.sql = sql;
        this.signals = signals;
    }

    /** @param groups groups a transaction that just committed touched ({@link PostgresSql#unparkGroups}) */
    void check(Collection<java.util.UUID> groups) {
        if (!stopped()) {
            pending.addAll(groups);
        }
    }

    /** @param queues queues whose messages were just committed */
    void committed(Collection<String> queues) {
        if (!stopped()) {
            pending.addAll(queues);
        }
    }

    @Override
    void work() {
        try {
            while (!stopped()) {
                Object first = pending.poll(500, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                pauseUntil(Math.max(lastRound + INTERVAL_NANOS, System.nanoTime() + SETTLE_NANOS));
                List<Object> batch = new ArrayList<>();
                batch.add(first);
                pending.drainTo(batch);
                Set<String> queues = new LinkedHashSet<>();
                Set<java.util.UUID> groups = new LinkedHashSet<>();
                for (Object item : batch) {
                    if (item instanceof java.util.UUID group) {
                        groups.add(group);
                    } else {
                        queues.add((String) item);
                    }
                }
                send(queues, groups);
                lastRound = System.nanoTime();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            close();
        }
    }

    private static void pauseUntil(long deadline) throws InterruptedException {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            LockSupport.parkNanos(left);
        }
    }

    /** Returns the backend process that sends this JVM's notifications, 0 while it has no connection. */
    int backendPid() {
        return backendPid;
    }

    private void send(Set<String> queues, Set<java.util.UUID> groups) throws InterruptedException {
        try {
            if (connection == null) {
                connection = open(source);
                backendPid = connection.unwrap(PGConnection.class).getBackendPID();
            }
            if (!groups.isEmpty()) {
                // before the notifications, so that the readers they wake see the groups' turns
                Set<String> unparked = unpark(connection, sql, groups);
                if (!unparked.isEmpty()) {
                    signals.signalAll(unparked);
                    queues.addAll(unparked);
                }
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
            // into the next round (merged with what commits meanwhile): a round a slow or lost answer cut short is
            // not dropped, nor are the groups it was to give their turn, which every reader skips until then
            if (!stopped()) {
                pending.addAll(groups);
                pending.addAll(queues);
            }
            Thread.sleep(delay);
        }
    }

    /**
     * @param source the database
     * @return a connection for the notifier, in auto-commit, that keeps its statements' generic plans
     *         ({@link PostgresSql#GENERIC_PLANS}) and waits at most {@link #NETWORK_TIMEOUT_MILLIS} for an answer
     * @throws SQLException if the database refuses
     */
    static Connection open(ConnectionSource source) throws SQLException {
        Connection c = source.open();
        try {
            c.setAutoCommit(true);
            c.setNetworkTimeout(Runnable::run, NETWORK_TIMEOUT_MILLIS);
            try (java.sql.Statement s = c.createStatement()) {
                s.execute(PostgresSql.GENERIC_PLANS);
            }
            return c;
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    /**
     * Gives the parked groups among {@code groups} that have messages a turn again ({@link PostgresSql#unparkGroups}).
     *
     * @param c the notifier's connection ({@link #open})
     * @param sql the statements
     * @param groups groups that committed transactions touched
     * @return the queues of the groups given a turn
     * @throws SQLException if the statement fails
     */
    static Set<String> unpark(Connection c, PostgresSql sql, Set<java.util.UUID> groups) throws SQLException {
        Set<String> unparked = new LinkedHashSet<>();
        try (PreparedStatement ps = c.prepareStatement(sql.unparkGroups)) {
            ps.setArray(1, c.createArrayOf("uuid", groups.toArray()));
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    unparked.add(rs.getString(1));
                }
            }
        }
        return unparked;
    }

    private void close() {
        backendPid = 0;
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
