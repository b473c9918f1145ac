package org.ssbjca.backend.portable;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.conformance.PostgresServer;

/** How commits are announced to other JVMs on PostgreSQL, and how this JVM's listener treats its own announcements. */
class PgNotifierTest {

    private static final String QUEUE = "NotifiedQueue";

    /**
     * Commits that follow each other closely are announced together: rounds of NOTIFY are at least
     * {@link PgNotifier#INTERVAL_NANOS} apart, and the last commit is still announced after it was made.
     */
    @Test
    void closeCommitsAreAnnouncedTogetherAndTheLastIsAnnounced() throws Exception {
        ConnectionSource source = new ConnectionSource(PostgresServer.get().newDatabase("notifier_interval"));
        PgNotifier notifier = new PgNotifier(source, new PostgresSql(), new QueueSignals());
        Thread thread = new Thread(notifier, "notifier");
        try (Connection listening = listening(source)) {
            thread.start();
            int commits = 200;
            long start = System.nanoTime();
            for (int i = 0; i < commits; i++) {
                notifier.committed(List.of(QUEUE));
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200)); // a commit every 0.2 ms or more
            }
            long lastCommit = System.nanoTime();
            List<Long> arrivals = new ArrayList<>();
            PGConnection pg = listening.unwrap(PGConnection.class);
            await("the announcement of the last commit").atMost(Duration.ofSeconds(30))
                    .until(() -> receive(pg, arrivals) && arrivals.get(arrivals.size() - 1) > lastCommit);
            receive(pg, arrivals);
            long rounds = (arrivals.get(arrivals.size() - 1) - start) / PgNotifier.INTERVAL_NANOS + 1;
            assertTrue(arrivals.size() <= rounds && arrivals.size() < commits, arrivals.size()
                    + " notifications for " + commits + " commits in " + TimeUnit.NANOSECONDS.toMillis(
                            arrivals.get(arrivals.size() - 1) - start) + " ms: at most " + rounds + " rounds");
        } finally {
            notifier.stop();
            thread.interrupt();
            thread.join(10_000);
        }
    }

    /**
     * A commit that finds the notifier idle is announced no sooner than {@link PgNotifier#SETTLE_NANOS} after it: the
     * readers of this JVM, signalled at the commit, run their RECEIVE first. When the notifier's NOTIFY started is read
     * from PostgreSQL ({@code pg_stat_activity.query_start} of its session), against the database's clock just before
     * the commit was handed to it.
     */
    @Test
    void aCommitAfterAQuietTimeIsAnnouncedOnceTheLocalReadersHadTheirTurn() throws Exception {
        ConnectionSource source = new ConnectionSource(PostgresServer.get().newDatabase("notifier_settle"));
        PgNotifier notifier = new PgNotifier(source, new PostgresSql(), new QueueSignals());
        Thread thread = new Thread(notifier, "notifier");
        try (Connection listening = listening(source); Connection watching = autoCommitting(source)) {
            thread.start();
            PGConnection pg = listening.unwrap(PGConnection.class);
            for (int i = 0; i < 6; i++) {
                // quiet: the interval since the last round is over
                LockSupport.parkNanos(2 * PgNotifier.INTERVAL_NANOS);
                long committedAt = microsNow(watching,
                        "SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::bigint");
                notifier.committed(List.of(QUEUE));
                nextArrival(pg);
                long notifiedAt = microsNow(watching, "SELECT (EXTRACT(EPOCH FROM query_start) * 1000000)::bigint"
                        + " FROM pg_stat_activity WHERE pid = " + notifier.backendPid());
                if (i > 0) { // the first round opens the notifier's connection
                    assertTrue(notifiedAt - committedAt >= TimeUnit.NANOSECONDS.toMicros(PgNotifier.SETTLE_NANOS),
                            "the NOTIFY started " + (notifiedAt - committedAt) + " µs after the commit");
                }
            }
        } finally {
            notifier.stop();
            thread.interrupt();
            thread.join(10_000);
        }
    }

    /**
     * A connection left half-open (the server gone with no FIN or RST reaching the client, as after a network failure
     * or a failover) is given up and replaced: without that, the notifier waited for the answer to its NOTIFY for good,
     * announced no commit again, kept every commit's queue in its pending ones, and did not end when stopped.
     */
    @Test
    void aNotifierWhoseConnectionWentSilentConnectsAgain() throws Exception {
        throughBlackHole("notifier_half_open", (notifier, pg) -> {
            notifier.committed(List.of(QUEUE)); // its NOTIFY goes into the black hole
            await("a commit after the black hole is announced").atMost(Duration.ofSeconds(30)).until(() -> {
                notifier.committed(List.of(QUEUE));
                PGNotification[] got = pg.getNotifications(500);
                return got != null && List.of(got).stream().anyMatch(n -> QUEUE.equals(n.getParameter()));
            });
        });
    }

    /**
     * A round whose statements the network timeout cut short is not dropped: its queues (and the groups it was to
     * give their turn, which every reader would otherwise skip until the periodic repair) go into the next round.
     */
    @Test
    void aRoundCutShortByTheNetworkTimeoutIsSentAgain() throws Exception {
        throughBlackHole("notifier_round_again", (notifier, pg) -> {
            notifier.committed(List.of("CutShortQueue")); // once: its round goes into the black hole
            await("the round cut short is sent again").atMost(Duration.ofSeconds(30)).until(() -> {
                PGNotification[] got = pg.getNotifications(500);
                return got != null && List.of(got).stream().anyMatch(n -> "CutShortQueue".equals(n.getParameter()));
            });
        });
    }

    /** What a test does once the notifier's connection went into the black hole. */
    @FunctionalInterface
    private interface AfterBlackHole {
        void run(PgNotifier notifier, PGConnection listening) throws Exception;
    }

    /**
     * Runs {@code steps} with a notifier whose connection goes through a {@link BlackHoleProxy}, once that connection
     * announced a first commit and was then black-holed; a listener of its own, straight to the database, hears what
     * it sends. The notifier must end when stopped.
     */
    private static void throughBlackHole(String name, AfterBlackHole steps) throws Exception {
        org.ssbjca.backend.DatabaseConfig database = PostgresServer.get().newDatabase(name);
        try (BlackHoleProxy proxy = new BlackHoleProxy(database);
                Connection listening = listening(new ConnectionSource(database))) {
            PgNotifier notifier = new PgNotifier(new ConnectionSource(proxy.through(database)),
                    new PostgresSql(), new QueueSignals());
            Thread thread = new Thread(notifier, "notifier");
            thread.start();
            try {
                PGConnection pg = listening.unwrap(PGConnection.class);
                notifier.committed(List.of(QUEUE));
                nextArrival(pg);
                proxy.blackHole();
                steps.run(notifier, pg);
            } finally {
                notifier.stop();
                thread.join(10_000);
            }
            assertFalse(thread.isAlive(), "the notifier ended when stopped");
        }
    }

    /** @return a connection in auto-commit that listens on the adapter's channel */
    private static Connection listening(ConnectionSource source) throws Exception {
        Connection c = autoCommitting(source);
        try (Statement s = c.createStatement()) {
            s.execute("LISTEN " + PortableBroker.CHANNEL);
        }
        return c;
    }

    private static Connection autoCommitting(ConnectionSource source) throws Exception {
        Connection c = source.open();
        c.setAutoCommit(true);
        return c;
    }

    private static long microsNow(Connection c, String query) throws Exception {
        try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(query)) {
            assertTrue(rs.next(), query);
            return rs.getLong(1);
        }
    }

    /** The listener skips what this JVM's notifier announced (its readers were signalled at the commit), not others. */
    @Test
    void theListenerSkipsItsOwnNotifiersAnnouncements() throws Exception {
        ConnectionSource source = new ConnectionSource(PostgresServer.get().newDatabase("listener_own"));
        QueueSignals signals = new QueueSignals();
        PgNotifier notifier = new PgNotifier(source, new PostgresSql(), new QueueSignals());
        PgListener listener = new PgListener(source, signals, notifier::backendPid);
        Thread notifying = new Thread(notifier, "notifier");
        Thread listening = new Thread(listener, "listener");
        try (Connection watching = listening(source); Connection other = autoCommitting(source)) {
            listening.start();
            notifying.start();
            await("the listener listens").atMost(Duration.ofSeconds(30)).until(() -> {
                notify(other, "probe");
                return signals.generation("probe") > 0;
            });
            long before = signals.generation(QUEUE);
            notifier.committed(List.of(QUEUE));
            PGConnection pg = watching.unwrap(PGConnection.class);
            List<PGNotification> seen = new ArrayList<>();
            await("the own announcement is sent").atMost(Duration.ofSeconds(30)).until(() -> {
                PGNotification[] got = pg.getNotifications(100);
                if (got != null) {
                    seen.addAll(List.of(got));
                }
                return seen.stream().anyMatch(n -> QUEUE.equals(n.getParameter())
                        && n.getPID() == notifier.backendPid());
            });
            notify(other, QUEUE); // after the own one: the listener receives them in this order

            await("the other session's announcement is signalled").atMost(Duration.ofSeconds(30))
                    .until(() -> signals.generation(QUEUE) > before);
            assertEquals(before + 1, signals.generation(QUEUE), "only the other session's NOTIFY was signalled");
        } finally {
            notifier.stop();
            listener.stop();
            notifying.interrupt();
            notifying.join(10_000);
            listening.join(10_000);
        }
    }

    /**
     * The notifier's check after a commit that parked a group runs once per such commit (once per message at low
     * rates): it must not be planned again at every execution. PostgreSQL kept choosing a custom plan for it (its
     * generic plan's estimate for the array's size made it look dearer), about 0.1 ms of planning each time.
     */
    @Test
    void theCheckAfterACommitIsNotPlannedAtEveryExecution() throws Exception {
        ConnectionSource source = new ConnectionSource(PostgresServer.get().newDatabase("notifier_plans"));
        PostgresSql sql = new PostgresSql();
        try (PortableBroker broker = new PortableBroker(source, org.ssbjca.backend.BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection c = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
        }
        int executions = 20;
        try (Connection notifying = PgNotifier.open(source)) {
            for (int i = 0; i < executions; i++) {
                assertEquals(java.util.Set.of(), PgNotifier.unpark(notifying, sql,
                        java.util.Set.of(java.util.UUID.randomUUID())));
            }
            try (Statement s = notifying.createStatement(); java.sql.ResultSet rs = s.executeQuery(
                    "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE"
                            + " 'UPDATE ssb.conversation_group u%'")) {
                assertTrue(rs.next(), "the statement is kept prepared on the notifier's connection");
                long generic = rs.getLong(1);
                long custom = rs.getLong(2);
                assertEquals(0, custom, "custom plans (one planning each) of " + executions + " executions; generic: "
                        + generic);
                assertTrue(generic > 0, "generic plans: " + generic);
            }
            // its session plans no sequential scan where an index serves: nothing may cost as much as forcing one
            RecordedStatements recorded = new RecordedStatements(notifying);
            PgNotifier.unpark(recorded.connection(), sql, java.util.Set.of(java.util.UUID.randomUUID()));
            double threshold;
            try (Statement s = notifying.createStatement(); java.sql.ResultSet rs = s.executeQuery(
                    "SHOW jit_above_cost")) {
                rs.next();
                threshold = Double.parseDouble(rs.getString(1));
            }
            java.util.Map<String, Double> costs = recorded.explainedCosts(notifying);
            assertEquals(1, costs.size(), costs.toString());
            assertTrue(costs.values().iterator().next() <= threshold, "costed above jit_above_cost: " + costs);
        }
    }

    private static void notify(Connection c, String queue) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_notify('" + PortableBroker.CHANNEL + "', ?)")) {
            ps.setString(1, queue);
            ps.execute();
        }
    }

    /** Waits (at most 30 s) for the queue's next notification. */
    private static void nextArrival(PGConnection pg) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            PGNotification[] got = pg.getNotifications(100); // returns as soon as one arrives
            if (got != null && List.of(got).stream().anyMatch(n -> QUEUE.equals(n.getParameter()))) {
                return;
            }
        }
        throw new AssertionError("no notification within 30 s");
    }

    /** Adds the arrival times of the notifications waiting now; @return whether any arrived so far */
    private static boolean receive(PGConnection pg, List<Long> arrivals) throws Exception {
        PGNotification[] got = pg.getNotifications(50);
        if (got != null) {
            for (PGNotification n : got) {
                if (QUEUE.equals(n.getParameter())) {
                    arrivals.add(System.nanoTime());
                }
            }
        }
        return !arrivals.isEmpty();
    }
}
