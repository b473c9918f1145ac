package org.ssbjca.inbound.table;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.InvalidPropertyException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.stream.Stream;
import javax.management.JMX;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.table.TableCounts;
import org.ssbjca.conformance.PostgresServer;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.management.ObjectNames;
import org.ssbjca.management.TableActivationMXBean;

/**
 * Table activations end to end without a container: the adapter's readers feed a {@link TableRowListener} from a
 * table (the seeds' tables) on H2 and PostgreSQL, in both modes, with the attempt limit, the counts an operator reads
 * and the errors that fail a deployment.
 */
public class TableActivationTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    static Stream<String> databases() {
        return Stream.of("H2", "PostgreSQL");
    }

    public static DatabaseConfig database(String kind) {
        int n = DATABASES.incrementAndGet();
        return "H2".equals(kind)
                ? new DatabaseConfig("jdbc:h2:mem:tables-" + n + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=5000",
                null, null) : PostgresServer.get().newDatabase("tables_" + n);
    }

    /** Seed 004, transactional: 4 readers deliver 400 messages, each once, each kept with its dequeue time. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void fourReadersDeliverEveryMessageOnceAndKeepItWithItsDequeueTime(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false)) {
            createMessages(h, 400);
            Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
            TableRowListener bean = row -> seen.computeIfAbsent(row.payloadText(), k -> new AtomicInteger())
                    .incrementAndGet();
            TableActivationSpec spec = messageSpec(h);
            spec.setMaxReaders("4");
            spec.setBatchSize("3");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> seen.size() == 400);
                TableActivation activation = activation(h, factory);
                await().atMost(Duration.ofSeconds(30)).until(() -> activation.deliveredRows() == 400);
                assertTrue(seen.values().stream().allMatch(n -> n.get() == 1), "each message delivered once");
                assertEquals(400, count(h, "SELECT COUNT(*) FROM Messaging.Message WHERE DequeueTime IS NOT NULL"));
                TableCounts counts = activation.counts();
                assertEquals(0, counts.available());
                assertEquals(0, factory.pairingErrors.get(), "beforeDelivery and afterDelivery paired");
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * A table delivery whose listener call fails outside the bean (WildFly's endpoint while the bean's component
     * stops, during an undeploy) is rolled back by the container itself, as the adapter marks its transaction for
     * rollback; the rows are delivered, once each, when the component works again.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aListenerCallThatFailsOutsideTheBeanIsRolledBackByTheContainer(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false)) {
            createMessages(h, 3);
            Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
            TableRowListener bean = row -> seen.computeIfAbsent(row.payloadText(), k -> new AtomicInteger())
                    .incrementAndGet();
            TableActivationSpec spec = messageSpec(h);
            spec.setMaxReaders("1");
            spec.setRetryDelaySeconds("0");
            spec.setMaxAttempts("0");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            factory.componentStopping(true);
            h.ra.endpointActivation(factory, spec);
            try {
                await("deliveries failed while stopping").until(() -> factory.rollbacks.get() >= 2);
                factory.componentStopping(false);
                await("all three delivered").atMost(Duration.ofSeconds(30)).until(() -> seen.size() == 3);
                assertTrue(seen.values().stream().allMatch(n -> n.get() == 1), "each message delivered once");
                assertEquals(0, factory.refusedCommits.get(), "the container rolled the failed calls back itself");
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * The flight recorder event (docs/operations/monitoring.md) for the bean's calls: a table delivery's rows, under
     * the table's name.
     */
    @org.junit.jupiter.api.Test
    void aTableDeliveryIsRecordedAsOneBeanCallForItsRows() throws Exception {
        List<jdk.jfr.consumer.RecordedEvent> events;
        try (InboundHarness h = new InboundHarness(database("H2"), false);
                jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable(org.ssbjca.support.DeliveryEvent.NAME).withThreshold(Duration.ZERO);
            recording.start();
            createMessages(h, 3);
            AtomicInteger seen = new AtomicInteger();
            TableActivationSpec spec = messageSpec(h);
            spec.setMaxReaders("1");
            spec.setBatchSize("3");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class,
                    (TableRowListener) row -> seen.incrementAndGet(), true, h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> activation(h, factory).deliveredRows() == 3);
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
            recording.stop();
            events = org.ssbjca.fakes.FlightRecordings.events(recording);
        }
        assertEquals(1, events.size(), events.toString());
        jdk.jfr.consumer.RecordedEvent call = events.get(0);
        assertEquals("Messaging.Message", call.getString("queue"));
        assertEquals(3, call.getInt("messages"));
        assertTrue(call.getBoolean("succeeded"));
        assertEquals(null, call.getString("group"));
    }

    /**
     * Seed 003, leased: the bean fails on the poison job each time; it is taken again after the retry delay, its
     * attempt counted, and set aside after maxAttempts; redelivered, it comes back as attempt 1. The other jobs flow.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aJobThatKeepsFailingIsSetAsideAndAnOperatorCanRedeliverIt(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false);
             LogRecords log = LogRecords.of(TableReader.class)) {
            createJobQueue(h);
            execute(h, "INSERT INTO Job_Queue (Priority, Payload) VALUES (1, 'poison'), (2, 'fine 1'), (3, 'fine 2')");
            List<String> delivered = new CopyOnWriteArrayList<>();
            List<Integer> poisonAttempts = new CopyOnWriteArrayList<>();
            TableRowListener bean = row -> {
                if ("poison".equals(row.payloadText())) {
                    poisonAttempts.add(row.attempt());
                    throw new IllegalStateException("cannot handle " + row);
                }
                delivered.add(row.payloadText());
            };
            TableActivationSpec spec = jobSpec(h);
            spec.setMode("leased");
            spec.setMaxAttempts("3");
            spec.setRetryDelaySeconds("0");
            spec.setPollMillis("50");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation activation = activation(h, factory);
                await().atMost(Duration.ofSeconds(30)).until(() -> activation.counts().setAside() == 1
                        && delivered.size() == 2);
                assertEquals(List.of(1, 2, 3), poisonAttempts, "each taking counted, then set aside");
                // the first failure at WARN, the second at DEBUG with its count; the last says the job is set aside,
                // not that it will be taken again
                assertEquals(1, log.messages(Level.WARNING, "SSBJCA0113").size(), log.messages(Level.WARNING,
                        "SSBJCA0113").toString());
                assertEquals(1, log.messages(Level.FINE, "SSBJCA0130").size());
                List<String> setAside = log.messages(Level.WARNING, "SSBJCA0118");
                assertEquals(1, setAside.size(), setAside.toString());
                assertTrue(setAside.get(0).contains("attempt 3 of 3"), setAside.get(0));
                assertEquals(List.of("fine 1", "fine 2"), delivered);
                assertEquals(3, activation.failedDeliveries());
                assertEquals(2, count(h, "SELECT COUNT(*) FROM Job_Queue WHERE Last_Attempt_End_Date IS NOT NULL"));

                assertEquals(1, activation.redeliverSetAside());
                await().atMost(Duration.ofSeconds(30)).until(() -> poisonAttempts.size() >= 4);
                assertEquals(1, poisonAttempts.get(3), "a new round of attempts");
                await().atMost(Duration.ofSeconds(30)).until(() -> activation.counts().setAside() == 1);
                assertEquals(1, activation.purgeSetAside());
                assertEquals(2, count(h, "SELECT COUNT(*) FROM Job_Queue"));
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * A batch of ten jobs whose fifth is poison, one reader, {@code maxAttempts} 3, in both modes: the bean's throw on
     * the poison job fails that job only. The batch is rolled back (the four jobs before it were handled, the five
     * after it not delivered) and taken again whole while the poison job is in it, but only the poison job's attempts
     * count: it alone is set aside after its third failure (logged SSBJCA0113 twice, then SSBJCA0118), and the nine
     * others are delivered in the next transaction, each at its first attempt. The operator's redelivery gives back
     * the poison job alone.
     */
    @ParameterizedTest(name = "{0}, {1}")
    @org.junit.jupiter.params.provider.CsvSource({"H2, leased", "H2, transactional", "PostgreSQL, leased",
        "PostgreSQL, transactional"})
    void aFailingRowIsSetAsideAloneAndTheOtherRowsOfItsBatchAreDelivered(String kind, String mode) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false);
             LogRecords log = LogRecords.of(TableReader.class)) {
            createJobQueue(h);
            StringBuilder jobs = new StringBuilder("INSERT INTO Job_Queue (Priority, Payload) VALUES ");
            for (int i = 1; i <= 10; i++) {
                jobs.append(i == 1 ? "" : ", ").append("(").append(i).append(", '")
                        .append(i == 5 ? "poison" : "job " + i).append("')");
            }
            execute(h, jobs.toString());
            Map<String, List<Integer>> calls = new ConcurrentHashMap<>();
            TableRowListener bean = row -> {
                calls.computeIfAbsent(row.payloadText(), k -> new CopyOnWriteArrayList<>()).add(row.attempt());
                if ("poison".equals(row.payloadText())) {
                    throw new IllegalStateException("cannot handle " + row);
                }
            };
            TableActivationSpec spec = jobSpec(h, mode);
            spec.setMaxReaders("1");
            spec.setBatchSize("10");
            spec.setMaxAttempts("3");
            spec.setRetryDelaySeconds("0");
            spec.setPollMillis("50");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation activation = activation(h, factory);
                await().atMost(Duration.ofSeconds(60)).until(() -> {
                    TableCounts c = activation.counts();
                    return c.available() == 0 && c.leased() == 0 && activation.deliveredRows() + c.setAside() == 10;
                });
                assertEquals(1, activation.counts().setAside(), "only the poison job set aside");
                assertEquals(9, activation.deliveredRows());
                assertEquals(9, count(h, "SELECT COUNT(*) FROM Job_Queue WHERE Last_Attempt_End_Date IS NOT NULL"
                        + " AND Payload <> 'poison'"));
                assertEquals(3, activation.failedDeliveries());
                assertEquals(3, count(h, "SELECT Attempts FROM Job_Queue WHERE Payload = 'poison'"));
                // leased: each taking counts, and is given back to the rows whose failure it was not
                assertEquals("leased".equals(mode) ? 9 : 0, count(h, "SELECT SUM(Attempts) FROM Job_Queue"
                        + " WHERE Payload <> 'poison'"), "the other jobs were never charged");
                assertEquals(List.of(1, 2, 3), calls.get("poison"));
                for (int i = 1; i <= 4; i++) {
                    assertEquals(List.of(1, 1, 1, 1), calls.get("job " + i), "job " + i);
                }
                for (int i = 6; i <= 10; i++) {
                    assertEquals(List.of(1), calls.get("job " + i), "job " + i);
                }
                assertEquals(1, log.messages(Level.WARNING, "SSBJCA0113").size(),
                        log.messages(Level.WARNING, "SSBJCA0113").toString());
                assertEquals(1, log.messages(Level.FINE, "SSBJCA0130").size());
                List<String> setAside = log.messages(Level.WARNING, "SSBJCA0118");
                assertEquals(1, setAside.size(), setAside.toString());
                assertTrue(setAside.get(0).contains("attempt 3 of 3"), setAside.get(0));
                assertEquals(0, factory.pairingErrors.get());

                assertEquals(1, activation.redeliverSetAside(), "the poison job alone is given back");
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * A commit that fails (a deferred constraint refuses the poison job's completion) cannot be told of one row: every
     * row of the batch counts the failed delivery, in both modes, and the whole batch is set aside together at
     * {@code maxAttempts}, each of its rows logged (SSBJCA0118).
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"leased", "transactional"})
    void aCommitThatFailsChargesEveryRowOfItsBatch(String mode) throws Exception {
        try (InboundHarness h = new InboundHarness(database("PostgreSQL"), false);
             LogRecords log = LogRecords.of(TableReader.class)) {
            createJobQueue(h);
            execute(h, "CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " IF OLD.Payload = 'poison' AND (TG_OP = 'DELETE' OR NEW.Last_Attempt_End_Date IS NOT NULL) THEN"
                    + " RAISE EXCEPTION 'the poison job cannot be completed' USING ERRCODE = 'check_violation';"
                    + " END IF; RETURN NULL; END $$",
                    "CREATE CONSTRAINT TRIGGER refuse_poison AFTER UPDATE OR DELETE ON Job_Queue DEFERRABLE INITIALLY"
                            + " DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_poison()",
                    "INSERT INTO Job_Queue (Priority, Payload) VALUES (1, 'fine 1'), (2, 'poison'), (3, 'fine 2')");
            List<String> delivered = new CopyOnWriteArrayList<>();
            TableRowListener bean = row -> delivered.add(row.payloadText() + "#" + row.attempt());
            TableActivationSpec spec = jobSpec(h, mode);
            spec.setMaxReaders("1");
            spec.setBatchSize("3");
            spec.setMaxAttempts("2");
            spec.setRetryDelaySeconds("0");
            spec.setPollMillis("50");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation activation = activation(h, factory);
                await().atMost(Duration.ofSeconds(60)).until(() -> activation.counts().setAside() == 3);
                assertEquals(2, activation.failedDeliveries());
                assertEquals(0, activation.deliveredRows());
                assertEquals(List.of("fine 1#1", "poison#1", "fine 2#1", "fine 1#2", "poison#2", "fine 2#2"),
                        delivered);
                assertEquals(1, log.messages(Level.WARNING, "SSBJCA0113").size(),
                        log.messages(Level.WARNING, "SSBJCA0113").toString());
                List<String> setAside = log.messages(Level.WARNING, "SSBJCA0118");
                assertEquals(3, setAside.size(), "each row set aside is logged: " + setAside);
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * Leased: when the container fails a delivery before the bean (its {@code beforeDelivery}), the rows' leases end
     * after the retry delay, as after a failed delivery, not after the whole lease ({@code leaseSeconds}).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void leasedRowsWhoseDeliveryTheContainerFailsAreTakenAgainAfterTheRetryDelay(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false)) {
            createJobQueue(h);
            execute(h, "INSERT INTO Job_Queue (Priority, Payload) VALUES (1, 'job')");
            List<String> delivered = new CopyOnWriteArrayList<>();
            TableRowListener bean = row -> delivered.add(row.payloadText() + "#" + row.attempt());
            TableActivationSpec spec = jobSpec(h);
            spec.setMaxReaders("1");
            spec.setLeaseSeconds("600");
            spec.setRetryDelaySeconds("0");
            spec.setPollMillis("50");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            factory.failBeforeDelivery(1);
            h.ra.endpointActivation(factory, spec);
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> delivered.size() == 1);
                assertEquals(List.of("job#2"), delivered, "the first taking's delivery failed before the bean");
                assertEquals(0, factory.pairingErrors.get());
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * A delivery whose commit fails (here a deferred constraint of the user's table refuses the poison job's
     * completion at commit, after the bean returned, with an integrity error: the transaction is known to have rolled
     * back, pgjdbc's XA says {@code XA_RBINTEGRITY}) is a failed delivery like one whose bean threw: counted in
     * FailedDeliveries, its attempt counted, and the job set aside after maxAttempts; the other jobs flow. Transacted
     * (the commit is the container's, in afterDelivery) and not (the reader's local commit), in both modes.
     */
    @ParameterizedTest(name = "{0}, {1}")
    @org.junit.jupiter.params.provider.CsvSource({"transacted, leased", "transacted, transactional",
        "local, leased", "local, transactional"})
    void aDeliveryWhoseCommitFailsIsAFailedDeliveryAndItsJobIsSetAside(String transaction, String mode)
            throws Exception {
        try (InboundHarness h = new InboundHarness(database("PostgreSQL"), false)) {
            createJobQueue(h);
            execute(h, "CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " IF OLD.Payload = 'poison' AND (TG_OP = 'DELETE' OR NEW.Last_Attempt_End_Date IS NOT NULL) THEN"
                    + " RAISE EXCEPTION 'the poison job cannot be completed' USING ERRCODE = 'check_violation';"
                    + " END IF; RETURN NULL; END $$",
                    "CREATE CONSTRAINT TRIGGER refuse_poison AFTER UPDATE OR DELETE ON Job_Queue DEFERRABLE INITIALLY"
                            + " DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_poison()",
                    "INSERT INTO Job_Queue (Priority, Payload) VALUES (1, 'poison'), (2, 'fine 1'), (3, 'fine 2')");
            List<String> delivered = new CopyOnWriteArrayList<>();
            TableRowListener bean = row -> delivered.add(row.payloadText());
            TableActivationSpec spec = jobSpec(h, mode);
            spec.setMaxReaders("1");
            spec.setBatchSize("1");
            spec.setMaxAttempts("2");
            spec.setRetryDelaySeconds("0");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean,
                    "transacted".equals(transaction), h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation activation = activation(h, factory);
                await().atMost(Duration.ofSeconds(60)).until(() -> activation.counts().setAside() == 1
                        && activation.deliveredRows() == 2);
                assertEquals(2, activation.failedDeliveries(), "each failed commit counted");
                assertEquals(List.of("poison", "poison", "fine 1", "fine 2"), delivered);
                assertEquals(2, count(h, "SELECT Attempts FROM Job_Queue WHERE Payload = 'poison'"));
                assertEquals(0, factory.pairingErrors.get(), "beforeDelivery and afterDelivery paired");
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * A bean that outlives its row's lease: another reader leases the row again and completes it; the first reader's
     * completion is refused, counted in {@code LeasesLost} (the MBean attribute of docs/reference/mxbeans.md) and its
     * delivery rolled back.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aLeaseThatEndsWhileTheBeanRunsIsCountedAsLost(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false);
             LogRecords log = LogRecords.of(TableReader.class)) {
            createJobQueue(h);
            execute(h, "INSERT INTO Job_Queue (Priority, Payload) VALUES (1, 'slow')");
            java.util.concurrent.CountDownLatch secondTakingDone = new java.util.concurrent.CountDownLatch(1);
            List<Integer> attempts = new CopyOnWriteArrayList<>();
            TableRowListener bean = row -> {
                attempts.add(row.attempt());
                if (row.attempt() == 1) {
                    try {
                        // the lease (1 s) ends while this call waits: the other reader takes the row again
                        if (!secondTakingDone.await(60, java.util.concurrent.TimeUnit.SECONDS)) {
                            throw new IllegalStateException("the row was not taken again");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            TableActivationSpec spec = jobSpec(h);
            spec.setMaxReaders("2");
            spec.setBatchSize("1");
            spec.setLeaseSeconds("1");
            spec.setPollMillis("50");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation activation = activation(h, factory);
                await().atMost(Duration.ofSeconds(30)).until(() -> activation.deliveredRows() == 1);
                assertEquals(0, activation.leasesLost(), "the first call still holds its lost lease");
                secondTakingDone.countDown();
                await().atMost(Duration.ofSeconds(30)).until(() -> activation.leasesLost() == 1);
                assertEquals(1, mbean(h, factory).getLeasesLost(), "the MBean's LeasesLost");
                // LastError says the lease ran out, and on which row, not how the container's commit was refused
                await().atMost(Duration.ofSeconds(30)).until(() -> activation.lastError() != null);
                String lastError = mbean(h, factory).getLastError();
                assertTrue(lastError.contains("the lease on row ") && lastError.contains(" ran out (leaseSeconds 1)")
                        && lastError.contains("of Job_Queue (attempt 1)"), lastError);
                // the first leasing is normally attempt 1; on a slow machine the other reader may run first
                assertEquals(List.of(1, 2), attempts.stream().sorted().toList());
                assertEquals(1, activation.deliveredRows(), "the late completion delivered nothing more");
                await().atMost(Duration.ofSeconds(30)).until(() -> factory.rollbacks.get() == 1);
                assertEquals(1, count(h, "SELECT COUNT(*) FROM Job_Queue WHERE Last_Attempt_End_Date IS NOT NULL"));
                // the operator's line (docs/reference/messages.md): which row, and what to raise
                List<String> lost = log.messages(Level.WARNING, "SSBJCA0112");
                assertEquals(1, lost.size(), lost.toString());
                assertTrue(lost.get(0).contains("ended before its delivery committed")
                        && lost.get(0).contains("Raise leaseSeconds above the longest delivery"), lost.get(0));
            } finally {
                secondTakingDone.countDown();
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /** A bean without a container transaction: the reader's local transaction takes the rows and commits. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aBeanWithoutATransactionGetsTheRowsInTheReadersLocalTransaction(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false)) {
            createMessages(h, 20);
            List<String> seen = new CopyOnWriteArrayList<>();
            TableRowListener bean = row -> seen.add(row.payloadText());
            TableActivationSpec spec = messageSpec(h);
            spec.setDoneColumn("");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, false,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> seen.size() == 20);
                await().atMost(Duration.ofSeconds(30)).until(() -> count(h, "SELECT COUNT(*) FROM Messaging.Message")
                        == 0);
                assertEquals(20, seen.stream().distinct().count());
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void badPropertiesFailTheDeploymentNamingTheProperty(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false)) {
            createJobQueue(h);
            TableActivationSpec noKey = jobSpec(h);
            noKey.setKeyColumn("");
            assertMessage("'keyColumn'", assertThrows(InvalidPropertyException.class, noKey::validate));
            TableActivationSpec badMode = jobSpec(h);
            badMode.setMode("sometimes");
            assertMessage("'mode' must be transactional or leased", assertThrows(InvalidPropertyException.class,
                    badMode::validate));
            TableActivationSpec leasedWithoutLease = jobSpec(h);
            leasedWithoutLease.setMode("leased");
            leasedWithoutLease.setLeaseColumn("");
            assertMessage("'leaseColumn'", assertThrows(InvalidPropertyException.class,
                    leasedWithoutLease::validate));
            TableActivationSpec readers = jobSpec(h);
            readers.setMaxReaders("0");
            assertMessage("'maxReaders' must be between 1 and 256", assertThrows(InvalidPropertyException.class,
                    readers::validate));

            TableActivationSpec noColumn = jobSpec(h);
            noColumn.setPayloadColumn("Body");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class,
                    (TableRowListener) row -> { }, true, h.context.transactions());
            ResourceException e = assertThrows(ResourceException.class,
                    () -> h.ra.endpointActivation(factory, noColumn));
            assertMessage("'payloadColumn': the table", e);
        }
    }

    /** A bean deployed before its table: the readers look again and deliver once the table is there. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aTableCreatedAfterTheBeanDeploysIsFoundByTheReaders(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(database(kind), false)) {
            // the adapter's own schema first: on H2 its install (DDL) by the readers' first connection would hold the
            // catalog's lock against the CREATE SCHEMA below (seen under load in CI: a 5 s lock timeout)
            h.db.prepareSchema();
            List<String> seen = new CopyOnWriteArrayList<>();
            TableActivationSpec spec = messageSpec(h);
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class,
                    (TableRowListener) row -> seen.add(row.payloadText()), true, h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                createMessages(h, 5);
                await().atMost(Duration.ofSeconds(30)).until(() -> seen.size() == 5);
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    private static void assertMessage(String expected, Exception e) {
        assertTrue(e.getMessage().contains(expected), "'" + expected + "' in: " + e.getMessage());
    }

    public static TableActivation activation(InboundHarness h, FakeEndpointFactory factory) throws Exception {
        return h.ra.tableActivation(factory);
    }

    /** @return a JMX client's proxy of the activation's MBean, found by its documented name */
    static TableActivationMXBean mbean(InboundHarness h, FakeEndpointFactory factory) throws Exception {
        return JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
                ObjectNames.tableActivation(activation(h, factory).name()), TableActivationMXBean.class);
    }

    public static TableActivationSpec messageSpec(InboundHarness h) throws Exception {
        TableActivationSpec spec = new TableActivationSpec();
        spec.setResourceAdapter(h.ra);
        spec.setTable("Messaging.Message");
        spec.setKeyColumn("MessageId");
        spec.setPayloadColumn("MessageBody");
        spec.setOrderColumn("EnqueueTime");
        spec.setDoneColumn("DequeueTime");
        spec.setPollMillis("50");
        return spec;
    }

    public static TableActivationSpec jobSpec(InboundHarness h) throws Exception {
        TableActivationSpec spec = new TableActivationSpec();
        spec.setResourceAdapter(h.ra);
        spec.setTable("Job_Queue");
        spec.setKeyColumn("ID");
        spec.setPayloadColumn("Payload");
        spec.setPriorityColumn("Priority");
        spec.setAvailableColumn("Available_Date");
        spec.setLeaseColumn("Timeout_Date");
        spec.setMarkColumn("Processing_Mark");
        spec.setAttemptsColumn("Attempts");
        spec.setDoneColumn("Last_Attempt_End_Date");
        spec.setMode("leased");
        return spec;
    }

    /** Seed 003's columns in the given mode (the transactional mode without the lease's columns). */
    public static TableActivationSpec jobSpec(InboundHarness h, String mode) throws Exception {
        TableActivationSpec spec = jobSpec(h);
        spec.setMode(mode);
        if ("transactional".equals(mode)) {
            spec.setLeaseColumn("");
            spec.setMarkColumn("");
        }
        return spec;
    }

    public static void createMessages(InboundHarness h, int n) throws Exception {
        boolean pg = h.db.source().config().url().startsWith("jdbc:postgresql:");
        execute(h, "CREATE SCHEMA IF NOT EXISTS Messaging", "CREATE TABLE Messaging.Message (MessageId UUID NOT NULL"
                + " PRIMARY KEY, MessageBody " + (pg ? "BYTEA" : "VARBINARY(1000)") + " NOT NULL, EnqueueTime"
                + " TIMESTAMP NOT NULL, DequeueTime TIMESTAMP NULL)");
        try (Connection c = h.db.source().open(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO Messaging.Message (MessageId, MessageBody, EnqueueTime) VALUES (?, ?, ?)")) {
            long start = System.currentTimeMillis() - 60_000;
            for (int i = 0; i < n; i++) {
                ps.setObject(1, java.util.UUID.randomUUID());
                ps.setBytes(2, ("m" + i).getBytes(StandardCharsets.UTF_8));
                ps.setTimestamp(3, new java.sql.Timestamp(start + i));
                ps.addBatch();
            }
            ps.executeBatch();
            c.commit();
        }
    }

    public static void createJobQueue(InboundHarness h) throws Exception {
        execute(h, "CREATE TABLE Job_Queue (ID BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, Priority SMALLINT"
                + " DEFAULT 255 NOT NULL, Available_Date TIMESTAMP DEFAULT LOCALTIMESTAMP NOT NULL, Timeout_Date"
                + " TIMESTAMP, Attempts INT DEFAULT 0 NOT NULL, Processing_Mark UUID, Processing_Server VARCHAR(50),"
                + " Last_Attempt_Start_Date TIMESTAMP, Last_Attempt_End_Date TIMESTAMP, Payload VARCHAR(100) DEFAULT"
                + " 'a piece of work in the queue' NOT NULL)");
    }

    static void execute(InboundHarness h, String... statements) throws Exception {
        h.execute(statements);
    }

    public static long count(InboundHarness h, String query) throws Exception {
        try (Connection c = h.db.source().open(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(query)) {
            rs.next();
            long n = rs.getLong(1);
            c.rollback();
            return n;
        }
    }
}
