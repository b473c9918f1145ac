package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import org.awaitility.Awaitility;
import java.time.Duration;
import org.ssbjca.brokers.DeliveryContext;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.h2.tools.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.Jdbc;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.fakes.TcpProxy;
import org.ssbjca.tiers.Slow;

/**
 * Faults against fakes of the container and a real H2 server over TCP: a database outage mid-stream, connections
 * lost while the database stays up, a disabled queue. In each the activation survives: its readers back off (capped
 * exponential delays with jitter), reconnect one at a time, and go on, with nothing lost and nothing duplicated.
 */
@Slow
class ReaderFaultsTest {

    /** What this test reports (figures, or why a backend is skipped). */
    private static final java.util.logging.Logger FIGURES =
            java.util.logging.Logger.getLogger(ReaderFaultsTest.class.getName());

    private static final long INITIAL = 50;
    private static final long MAX = 400;
    private static final double JITTER = 0.5;

    @TempDir
    Path dir;

    @Test
    void aDatabaseOutageMidStreamLosesNothingAndDuplicatesNothing() throws Exception {
        int port = freePort();
        Server server = startH2(port);
        // Through a proxy that closes a client's connection as soon as the server refuses it: the H2 client retries
        // a refused connect for about 1.2 s by itself, which would hide the adapter's own backoff.
        try (TcpProxy proxy = new TcpProxy(port, 0);
             LogRecords logs = LogRecords.of(QueueReader.class);
             InboundHarness h = new InboundHarness("jdbc:h2:tcp://127.0.0.1:" + proxy.port()
                     + "/outage;LOCK_TIMEOUT=5000")) {
            createRecordTable(h);
            ServiceBrokerActivationSpec spec = backoffSpec(h);
            spec.setMaxReaders("3");
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, recorder(h, 2), true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            Events events = new Events();
            a.setEvents(events);
            int conversations = 60;
            int perConversation = 10;
            int total = conversations * perConversation;
            for (int c = 0; c < conversations; c++) {
                String[] bodies = new String[perConversation];
                for (int i = 0; i < perConversation; i++) {
                    bodies[i] = "m-" + c + "-" + i;
                }
                h.send(bodies);
            }
            await().until(() -> recorded(h) >= total / 4);
            assertNull(a.metrics().failingSince(), "the readers read");

            server.stop();
            long stoppedAt = System.nanoTime();
            // down long enough for every reader's delays to reach the cap, and for over a second
            Awaitility.await("every reader retried up to the cap").atMost(Duration.ofSeconds(30))
                    .until(() -> events.readers().size() == 3 && events.fewestDelays() >= 4
                            && System.nanoTime() - stoppedAt > TimeUnit.MILLISECONDS.toNanos(1500));
            long atStop = events.count();
            // what readiness and the metrics see while the database is away
            java.time.Instant failingSince = a.metrics().failingSince();
            int reconnecting = a.metrics().reconnectingReaders();
            long reconnects = a.metrics().reconnects();
            assertTrue(failingSince != null && failingSince.isBefore(java.time.Instant.now().minusSeconds(1)),
                    "failing since the stop: " + failingSince);
            assertTrue(reconnecting >= 1 && reconnecting <= 3, "readers reconnecting: " + reconnecting);
            assertTrue(reconnects >= reconnecting, "reconnects counted: " + reconnects);
            assertFalse(a.metrics().queueDisabled());
            server = startH2(port);
            long restartedAt = System.nanoTime();

            await().until(() -> recorded(h) == total);
            long firstAfterRestart = h.tx(s -> scalar(s, "SELECT MIN(at_nanos) FROM it_record WHERE at_nanos > "
                    + restartedAt));
            long resumedMillis = TimeUnit.NANOSECONDS.toMillis(firstAfterRestart - restartedAt);
            FIGURES.info(String.format("database outage: %d ms down, %d reconnect delays reported, delivery resumed %d ms "
                    + "after the database returned; %d of %d recorded, %d distinct",
                    TimeUnit.NANOSECONDS.toMillis(restartedAt - stoppedAt), atStop, resumedMillis, recorded(h),
                    total, distinct(h)));

            Awaitility.await("the readers read again").atMost(Duration.ofSeconds(30))
                    .until(() -> a.metrics().failingSince() == null && a.metrics().reconnectingReaders() == 0);
            assertTrue(a.metrics().reconnects() >= reconnects);
            assertEquals(total, distinct(h), "nothing lost, nothing duplicated");
            assertEquals(total, recorded(h), "nothing recorded twice");
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
            // the cap itself is checked on the reported delays below; this bound leaves a slow machine seconds for
            // the reconnect, the RECEIVE and the first delivery
            assertTrue(resumedMillis < MAX + 6_000, "delivery resumed " + resumedMillis + " ms after the return");
            assertEquals(3, a.readerCount(), "the activation kept its readers");
            assertEquals(3, h.context.fakeWorkManager().liveThreads(), "no reader thread died or was added");
            assertEquals(0, f.pairingErrors.get());
            events.assertCappedExponentialWithJitter(3);
            // the troubleshooting table's ids: a lost database is a reader failure with its stack trace, then the
            // same reader failing again; not a missing or disabled queue
            assertTrue(logs.withStackTrace(Level.WARNING, "SSBJCA0020") >= 1, "SSBJCA0020 with the stack trace: "
                    + logs.messages(Level.WARNING, "SSBJCA0020"));
            List<String> again = logs.messages(Level.WARNING, "SSBJCA0027");
            assertTrue(!again.isEmpty() && again.stream().allMatch(m -> m.matches(
                    "(?s).* failed again \\(failure ([2-9]|\\d{2,}) in a row\\): .*; reconnecting in \\d+ ms")),
                    "SSBJCA0027 for the failures after a reader's first, without a trace at WARN: " + again);
            assertEquals(0, logs.withStackTrace(Level.WARNING, "SSBJCA0027"));
            assertEquals(List.of(), logs.messages(Level.WARNING, "SSBJCA0025"), "no queue reported failing");
        } finally {
            server.stop();
        }
    }

    @Test
    void aDatabaseDownAtActivationDoesNotFailTheDeploymentAndDeliveryStartsOnceItIsUp() throws Exception {
        int port = freePort();
        Server server = null;
        // Nothing listens behind the proxy yet: every connection is refused, as by a database in maintenance.
        try (TcpProxy proxy = new TcpProxy(port, 0);
             InboundHarness h = new InboundHarness("jdbc:h2:tcp://127.0.0.1:" + proxy.port()
                     + "/down;LOCK_TIMEOUT=5000", false)) {
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = backoffSpec(h);
            spec.setMaxReaders("2");
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class,
                    (BrokerMessageListener) m -> got.add(m.bodyAsText()), true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            Events events = new Events();
            a.setEvents(events);
            await().until(() -> events.count() >= 4);
            assertEquals(2, a.readerCount(), "the readers retry while the database is down");
            assertTrue(a.metrics().lastError() != null, "the failure is reported");

            server = startH2(port);
            long upAt = System.nanoTime();
            await().until(() -> schemaInstalled(h));
            long schemaMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - upAt);
            h.declare();
            h.send("after the outage");
            await().until(() -> got.size() == 1);
            FIGURES.info(String.format("database down at activation: %d reconnect delays reported while down; the readers "
                    + "prepared the schema %d ms after it came up; delivered %d ms after it came up",
                    events.count(), schemaMillis, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - upAt)));

            assertEquals(List.of("after the outage"), got);
            assertEquals(2, a.readerCount(), "the activation kept its readers");
            assertEquals(0, f.pairingErrors.get());
        } finally {
            if (server != null) {
                server.stop();
            }
        }
    }

    @Test
    void lostConnectionsAreReopenedOneAtATime() throws Exception {
        int port = freePort();
        Server server = startH2(port);
        try (TcpProxy proxy = new TcpProxy(port, 300);
             LogRecords logs = LogRecords.of(QueueReader.class);
             InboundHarness h = new InboundHarness("jdbc:h2:tcp://127.0.0.1:" + proxy.port()
                     + "/lost;LOCK_TIMEOUT=5000")) {
            createRecordTable(h);
            ServiceBrokerActivationSpec spec = backoffSpec(h);
            spec.setMaxReaders("4");
            h.activate(BrokerMessageListener.class, recorder(h, 0), true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            Events events = new Events();
            a.setEvents(events);
            for (int i = 0; i < 20; i++) {
                h.send("before-" + i);
            }
            await().until(() -> recorded(h) == 20);
            Awaitility.await("the readers wait in their RECEIVE").atMost(Duration.ofSeconds(30))
                    .until(() -> waiting(h) == 4);

            proxy.resetCounts();
            proxy.cut();
            await().until(() -> events.readers().size() == 4 && proxy.accepted() >= 4);
            Awaitility.await("every reader reconnected and waits again").atMost(Duration.ofSeconds(30))
                    .until(() -> a.metrics().reconnectingReaders() == 0 && waiting(h) == 4);
            int maxConcurrentOpens = proxy.maxConcurrentOpens();
            int reopened = proxy.accepted();

            for (int i = 0; i < 20; i++) {
                h.send("after-" + i);
            }
            await().until(() -> recorded(h) == 40);
            FIGURES.info(String.format("connections cut: %d readers lost theirs, %d connections reopened, at most %d "
                    + "opening at once", events.readers().size(), reopened, maxConcurrentOpens));

            assertEquals(4, events.readers().size(), "every reader lost its connection and reported it");
            assertTrue(reopened >= 4, "every reader reconnected: " + reopened);
            assertEquals(1, maxConcurrentOpens, "one reconnect at a time per activation");
            assertEquals(40, distinct(h));
            assertEquals(4, a.readerCount());
            // the readers lost their connections waiting in their RECEIVE: a reader failure with its stack trace
            // (the troubleshooting table's SSBJCA0020), not a missing, disabled or failing queue (SSBJCA0025)
            assertEquals(List.of(), logs.messages(Level.WARNING, "SSBJCA0025"), "no queue reported failing");
            assertEquals(4, logs.withStackTrace(Level.WARNING, "SSBJCA0020"), "each reader's failure, with its"
                    + " stack trace: " + logs.messages(Level.WARNING, "SSBJCA0020"));
        } finally {
            server.stop();
        }
    }

    /**
     * Connections lost while the readers wait, on PostgreSQL, with and without the container's transaction: whichever
     * statement of the next turn finds the connection gone (the RECEIVE, the priority scan, the commit or rollback
     * after it), each reader's failure is logged as the troubleshooting table says (SSBJCA0020 with the stack trace),
     * not as a missing, disabled or failing queue (SSBJCA0025, whose advice is to create or enable the queue).
     */
    @ParameterizedTest(name = "transacted bean: {0}")
    @ValueSource(booleans = {true, false})
    void connectionsLostWhileTheReadersWaitAreReaderFailuresOnPostgreSql(boolean transacted) throws Exception {
        DatabaseConfig db = PostgresServer.get().newDatabase("faults_" + UUID.randomUUID().toString().replace("-", ""));
        Matcher port = Pattern.compile("://[^:/]+:(\\d+)/").matcher(db.url());
        assertTrue(port.find(), db.url());
        try (TcpProxy proxy = new TcpProxy(Integer.parseInt(port.group(1)), 0);
             LogRecords logs = LogRecords.of(QueueReader.class);
             InboundHarness h = new InboundHarness(new DatabaseConfig(db.url().replaceFirst(
                     "://[^:/]+:\\d+/", "://127.0.0.1:" + proxy.port() + "/"), db.user(), db.password()), true)) {
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = backoffSpec(h);
            spec.setMaxReaders("2");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> got.add(m.bodyAsText()),
                    transacted, spec);
            EndpointActivation a = h.ra.activations().get(0);
            Events events = new Events();
            a.setEvents(events);
            h.send("before");
            await().until(() -> got.size() == 1);
            // The cut must not fall between the bean's call and the delivery's commit: that delivery would fail its
            // commit and come again (as it should), which is not what this test is about. It comes once the message
            // is gone from the queue and both readers wait again (both connected, neither in a delivery).
            Awaitility.await("the delivery committed and both readers wait").atMost(Duration.ofSeconds(30))
                    .until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0 && waiting(h) == 2);

            proxy.cut();
            await().until(() -> events.readers().size() == 2);
            h.send("after");
            await().until(() -> got.contains("after"));

            assertEquals(List.of("before", "after"), got);
            assertEquals(List.of(), logs.messages(Level.WARNING, "SSBJCA0025"), "no queue reported failing");
            assertEquals(2, logs.withStackTrace(Level.WARNING, "SSBJCA0020"), "each reader's failure, with its"
                    + " stack trace: " + logs.messages(Level.WARNING, "SSBJCA0020"));
        }
    }

    @Test
    void aDisabledQueueIsReportedBackedOffFromAndReadAgainOnceEnabled() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> got = new CopyOnWriteArrayList<>();
            ServiceBrokerActivationSpec spec = backoffSpec(h);
            spec.setMaxReaders("2");
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class,
                    (BrokerMessageListener) m -> got.add(m.bodyAsText()), true, spec);
            EndpointActivation a = h.ra.activations().get(0);
            AtomicInteger disabledReports = new AtomicInteger();
            a.setEvents(new ActivationEvents() {
                @Override
                public void queueDisabled(String queue) {
                    disabledReports.incrementAndGet();
                }
            });
            h.send("1", "2", "3");
            await().until(() -> got.size() == 3);

            h.admin(admin -> admin.setQueueEnabled(InboundHarness.TARGET_QUEUE, false));
            h.send("4", "5", "6");
            Awaitility.await("nothing received from a disabled queue").during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(30)).until(() -> got.size() == 3);
            int reports = disabledReports.get();
            assertEquals(List.of("1", "2", "3"), got, "nothing is received from a disabled queue");
            assertTrue(reports >= 2, "each reader reported the disabled queue: " + reports);
            assertTrue(reports <= 30, "readers back off instead of retrying in a loop: " + reports
                    + " reports in 2 s");
            assertTrue(a.metrics().lastError().contains("disabled"), a.metrics().lastError());
            assertEquals(2, a.readerCount());
            assertTrue(a.metrics().queueDisabled(), "what readiness sees");
            assertTrue(a.metrics().failingSince() != null);

            long enabledAt = System.nanoTime();
            h.admin(admin -> admin.setQueueEnabled(InboundHarness.TARGET_QUEUE, true));
            await().until(() -> got.size() == 6);
            FIGURES.info(String.format("disabled queue: %d reports in 2 s from 2 readers; delivery resumed %d ms after it "
                    + "was enabled", reports, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - enabledAt)));
            assertEquals(List.of("1", "2", "3", "4", "5", "6"), got.stream().sorted().toList());
            Awaitility.await("read again").atMost(Duration.ofSeconds(30))
                    .until(() -> !a.metrics().queueDisabled() && a.metrics().failingSince() == null);
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
            assertEquals(0, f.pairingErrors.get());
        }
    }

    @Test
    void twentyActivateDeactivateCyclesLeakNoThreadAndNoConnection() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            long sessionsBefore = sessions(h);
            List<String> done = new CopyOnWriteArrayList<>();
            Map<String, Integer> attempts = new java.util.concurrent.ConcurrentHashMap<>();
            BrokerMessageListener bean = m -> {
                String body = m.bodyAsText();
                if (attempts.merge(body, 1, Integer::sum) == 1 && body.startsWith("fail-once")) {
                    throw new IllegalStateException("fails once, so that the bookkeeping connection is used");
                }
                done.add(body);
            };
            List<FakeEndpointFactory> factories = new ArrayList<>();
            for (int cycle = 0; cycle < 20; cycle++) {
                ServiceBrokerActivationSpec spec = h.spec();
                spec.setMaxReaders("4");
                FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, true, spec);
                factories.add(f);
                h.send("ok-" + cycle);
                h.send("fail-once-" + cycle);
                int expected = 2 * (cycle + 1);
                await().until(() -> done.size() == expected);
                h.ra.endpointDeactivation(f, spec);
                await().until(() -> h.context.fakeWorkManager().liveThreads() == 0);
                await().until(() -> sessions(h) == sessionsBefore);
            }
            FIGURES.info(String.format("20 activate/deactivate cycles of 4 readers: %d reader threads alive, %d database "
                    + "sessions (as before: %d)", h.context.fakeWorkManager().liveThreads(), sessions(h),
                    sessionsBefore));
            assertEquals(0, h.context.fakeWorkManager().liveThreads(), "no reader thread left");
            assertEquals(sessionsBefore, sessions(h), "no connection left open");
            assertTrue(h.ra.activations().isEmpty());
            for (FakeEndpointFactory f : factories) {
                assertEquals(0, f.liveEndpoints.get(), "every endpoint released");
                assertEquals(0, f.pairingErrors.get());
            }
            assertEquals(40, done.size());
        }
    }

    // ---- helpers

    private static ServiceBrokerActivationSpec backoffSpec(InboundHarness h) throws Exception {
        ServiceBrokerActivationSpec spec = h.spec();
        spec.setReconnectInitialMillis(String.valueOf(INITIAL));
        spec.setReconnectMaxMillis(String.valueOf(MAX));
        spec.setReconnectJitter(String.valueOf(JITTER));
        return spec;
    }

    /** A bean that records each message in a table, in the delivery's own transaction (on the reader's connection). */
    private static BrokerMessageListener recorder(InboundHarness h, long sleepMillis) {
        return m -> {
            BrokerSession s = DeliveryContext.sessionFor(h.db.source().config(),
                    h.context.transactions().getTransactionKey());
            if (s == null) {
                throw new IllegalStateException("no delivery transaction on this thread");
            }
            try (PreparedStatement ps = s.connection().prepareStatement(
                    "INSERT INTO it_record (body, at_nanos) VALUES (?, ?)")) {
                ps.setString(1, m.bodyAsText());
                ps.setLong(2, System.nanoTime());
                ps.executeUpdate();
                if (sleepMillis > 0) {
                    Thread.sleep(sleepMillis);
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot record " + m.bodyAsText() + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    private static void createRecordTable(InboundHarness h) {
        h.tx(s -> {
            try (Statement st = s.connection().createStatement()) {
                st.execute("CREATE TABLE it_record (body VARCHAR(100) NOT NULL, at_nanos BIGINT NOT NULL)");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return null;
        });
    }

    private static long recorded(InboundHarness h) {
        return h.tx(s -> scalar(s, "SELECT COUNT(*) FROM it_record"));
    }

    private static long distinct(InboundHarness h) {
        return h.tx(s -> scalar(s, "SELECT COUNT(DISTINCT body) FROM it_record"));
    }

    private static boolean schemaInstalled(InboundHarness h) {
        try {
            return h.tx(s -> scalar(s, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'SSB'"
                    + " AND TABLE_NAME = 'DEAD_LETTER'")) == 1;
        } catch (IllegalStateException notReachable) {
            return false;
        }
    }

    private static long sessions(InboundHarness h) {
        return h.tx(s -> scalar(s, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS"));
    }

    private static long scalar(BrokerSession s, String sql) {
        try {
            return Jdbc.count(s.connection(), sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private Server startH2(int port) throws SQLException {
        return Server.createTcpServer("-tcpPort", String.valueOf(port), "-baseDir", dir.toString(), "-ifNotExists")
                .start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The reconnect delays each reader reported, in order. */
    /** @return how many readers of the harness's queue wait in a RECEIVE now */
    private static int waiting(InboundHarness h) {
        return h.db.broker().signals().waiters(InboundHarness.TARGET_QUEUE, true);
    }

    private static final class Events implements ActivationEvents {
        private final Map<String, List<Long>> delays = new LinkedHashMap<>();

        @Override
        public synchronized void reconnecting(String queue, String reader, long delayMillis, String error) {
            delays.computeIfAbsent(reader, r -> new ArrayList<>()).add(delayMillis);
        }

        synchronized List<String> readers() {
            return new ArrayList<>(delays.keySet());
        }

        /** @return the fewest reconnect delays any reader reported (0 before every reader reported one) */
        synchronized int fewestDelays() {
            return delays.values().stream().mapToInt(List::size).min().orElse(0);
        }

        synchronized long count() {
            return delays.values().stream().mapToLong(List::size).sum();
        }

        /**
         * Each reader's n-th delay in a row lies in [base (1 - jitter), base] with base = min(max, initial 2^(n-1)):
         * the delays grow, are capped, and are shortened at random.
         */
        synchronized void assertCappedExponentialWithJitter(int readers) {
            assertEquals(readers, delays.size(), "every reader reported its reconnects: " + delays);
            boolean reachedCap = false;
            boolean jittered = false;
            for (Map.Entry<String, List<Long>> e : delays.entrySet()) {
                List<Long> d = e.getValue();
                assertTrue(d.size() >= 3, e.getKey() + " retried at least 3 times: " + d);
                for (int n = 0; n < d.size(); n++) {
                    long base = Math.min(MAX, INITIAL << Math.min(n, 20));
                    long delay = d.get(n);
                    assertTrue(delay <= base && delay >= Math.round(base * (1 - JITTER)),
                            e.getKey() + ": delay " + (n + 1) + " of " + d + " outside [" + base * (1 - JITTER)
                                    + ", " + base + "]");
                    reachedCap |= base == MAX;
                    jittered |= delay < base;
                }
                FIGURES.info(String.format("  %s: reconnect delays %s ms", e.getKey(), d));
            }
            assertTrue(reachedCap, "the delays reached the cap of " + MAX + " ms: " + delays);
            assertTrue(jittered, "jitter shortened the delays: " + delays);
        }
    }
}
