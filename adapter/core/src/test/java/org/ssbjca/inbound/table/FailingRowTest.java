package org.ssbjca.inbound.table;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.tiers.Slow;

/**
 * A row on which the bean always throws, ahead of good rows: the rows behind it are delivered while it waits for its
 * retry delay, in every mode, with and without an attempts column, with one reader and several, on H2 and PostgreSQL;
 * its first failure is logged at WARN, its repeats at DEBUG with a count; the activation's {@code LastError} and
 * {@code FailingSince} say why it fails; and with several readers the attempt limit holds exactly.
 */
class FailingRowTest {

    /** The bean of the seed 004 recipe (docs/guide/table-queues.md), failing on the row whose body is "poison". */
    private static TableRowListener failingOnPoison(List<Long> poisonAt, List<String> delivered) {
        return row -> {
            if ("poison".equals(row.payloadText())) {
                poisonAt.add(System.nanoTime());
                throw new IllegalStateException("cannot handle the poison row");
            }
            delivered.add(row.payloadText());
        };
    }

    /**
     * The seed 004 recipe of docs/guide/table-queues.md exactly (its properties as written: 4 readers, poll 200 ms, no
     * attempts column, the default retry delay of 1 s), and the trial of it with 2 readers: one row that always
     * fails, then 20 good ones. All 20 are delivered, the failing row is retaken no sooner than its retry delay, its
     * first failure is logged once at WARN and its repeats at DEBUG, and LastError and FailingSince name it.
     */
    @ParameterizedTest(name = "{0}, {1} readers")
    @CsvSource({"H2, 4", "H2, 2", "PostgreSQL, 4", "PostgreSQL, 2"})
    void theReadmeRecipeDeliversTheRowsBehindAFailingRow(String kind, int readers) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false);
                LogRecords log = LogRecords.of(TableReader.class)) {
            TableActivationTest.createMessages(h, 0);
            insertMessages(h, "poison", 20);
            List<Long> poisonAt = new CopyOnWriteArrayList<>();
            List<String> delivered = new CopyOnWriteArrayList<>();
            TableActivationSpec spec = recipe(h);
            spec.setMaxReaders(Integer.toString(readers));
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class,
                    failingOnPoison(poisonAt, delivered), true, h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation activation = TableActivationTest.activation(h, factory);
                await().atMost(Duration.ofSeconds(60)).until(() -> delivered.size() == 20);
                await().atMost(Duration.ofSeconds(30)).until(() -> poisonAt.size() >= 3);
                assertEquals(20, delivered.stream().distinct().count(), "each good row once");
                for (int i = 1; i < poisonAt.size(); i++) {
                    long gap = (poisonAt.get(i) - poisonAt.get(i - 1)) / 1_000_000;
                    assertTrue(gap >= 950, "the failing row retaken after " + gap + " ms, before its 1 s delay: "
                            + poisonAt.size() + " deliveries");
                }
                List<String> warned = log.messages(Level.WARNING, "SSBJCA0113");
                assertEquals(1, warned.size(), "the row's first failure at WARN, once: " + warned);
                assertEquals(1, log.withStackTrace(Level.WARNING, "SSBJCA0113"), "with its cause");
                await().atMost(Duration.ofSeconds(30)).until(() -> !log.messages(Level.FINE, "SSBJCA0130").isEmpty());
                String again = log.messages(Level.FINE, "SSBJCA0130").get(0);
                assertTrue(again.contains("2 failures"), again);
                String lastError = activation.lastError();
                assertNotNull(lastError, "LastError");
                assertTrue(lastError.contains("cannot handle the poison row") && lastError.contains("row "),
                        lastError);
                java.time.Instant since = activation.deliveriesFailingSince();
                assertNotNull(since, "DeliveriesFailingSince while only the failing row is left");
                int seen = poisonAt.size();
                await().atMost(Duration.ofSeconds(30)).until(() -> poisonAt.size() >= seen + 2);
                assertEquals(since, activation.deliveriesFailingSince(),
                        "DeliveriesFailingSince kept across the row's retries");
                assertNull(activation.failingSince(), "a failing row is no reader failure: readiness stays UP");
                assertEquals(0, factory.pairingErrors.get());
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * Every table mode, with and without an attempts column, one reader and three: with a retry delay of 30 s, the
     * failing row (first in order) is delivered once, and the 20 rows behind it are all delivered meanwhile.
     */
    @ParameterizedTest(name = "{0}, {1}, attempts column {2}, {3} reader(s)")
    @MethodSource("modes")
    void aFailingRowDelaysTheRowsBehindItByOneDeliveryAtMost(String kind, String mode, boolean attempts, int readers)
            throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            TableActivationTest.createJobQueue(h);
            StringBuilder jobs = new StringBuilder("INSERT INTO Job_Queue (Priority, Payload) VALUES (1, 'poison')");
            for (int i = 1; i <= 20; i++) {
                jobs.append(", (").append(i + 1).append(", 'job ").append(i).append("')");
            }
            TableActivationTest.execute(h, jobs.toString());
            List<Long> poisonAt = new CopyOnWriteArrayList<>();
            List<String> delivered = new CopyOnWriteArrayList<>();
            TableActivationSpec spec = TableActivationTest.jobSpec(h, mode);
            if (!attempts) {
                spec.setAttemptsColumn("");
            }
            spec.setMaxReaders(Integer.toString(readers));
            spec.setRetryDelaySeconds("30");
            spec.setPollMillis("50");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class,
                    failingOnPoison(poisonAt, delivered), true, h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> delivered.size() == 20);
                assertEquals(1, poisonAt.size(), "the failing row waits for its retry delay");
                assertEquals(20, delivered.stream().distinct().count());
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * A batch of ten jobs whose fifth fails, one reader, a retry delay of 30 s, in both modes: the batch rolls back
     * once, then its nine other jobs are delivered without the failing one, which waits for its delay (the four before
     * it delivered twice, the first time rolled back; the five after it once).
     */
    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"H2, leased", "H2, transactional", "PostgreSQL, leased", "PostgreSQL, transactional"})
    void theOtherRowsOfAFailedBatchAreTakenAgainWithoutTheFailingRow(String kind, String mode) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            TableActivationTest.createJobQueue(h);
            StringBuilder jobs = new StringBuilder("INSERT INTO Job_Queue (Priority, Payload) VALUES ");
            for (int i = 1; i <= 10; i++) {
                jobs.append(i == 1 ? "" : ", ").append("(").append(i).append(", '")
                        .append(i == 5 ? "poison" : "job " + i).append("')");
            }
            TableActivationTest.execute(h, jobs.toString());
            Map<String, List<Integer>> calls = new ConcurrentHashMap<>();
            TableRowListener bean = row -> {
                calls.computeIfAbsent(row.payloadText(), k -> new CopyOnWriteArrayList<>()).add(row.attempt());
                if ("poison".equals(row.payloadText())) {
                    throw new IllegalStateException("cannot handle " + row);
                }
            };
            TableActivationSpec spec = TableActivationTest.jobSpec(h, mode);
            spec.setMaxReaders("1");
            spec.setBatchSize("10");
            spec.setRetryDelaySeconds("30");
            spec.setPollMillis("50");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation activation = TableActivationTest.activation(h, factory);
                await().atMost(Duration.ofSeconds(60)).until(() -> activation.deliveredRows() == 9);
                assertEquals(List.of(1), calls.get("poison"));
                for (int i = 1; i <= 10; i++) {
                    if (i != 5) {
                        assertEquals(i < 5 ? List.of(1, 1) : List.of(1), calls.get("job " + i), "job " + i);
                    }
                }
                assertEquals(1, activation.failedDeliveries());
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * More failing rows than a taking leaves out (300 ahead of 5 good ones, transactional, one reader, a retry delay
     * of 10 s, {@code maxAttempts} 2): a reader that takes a held row gives it back undelivered (SSBJCA0131), so no
     * failing row is delivered again before its delay; the good rows are delivered once the failing ones are set
     * aside. The delay outlasts a first pass over the 300 rows even on a slow machine (with 2 s, a pass slower than
     * that found every hold already over, and nothing to give back).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.ssbjca.inbound.table.TableActivationTest#databases")
    @Slow
    void moreHeldRowsThanATakingLeavesOutAreNotTakenBeforeTheirDelay(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false);
                LogRecords log = LogRecords.of(TableReader.class)) {
            TableActivationTest.createJobQueue(h);
            StringBuilder jobs = new StringBuilder("INSERT INTO Job_Queue (Priority, Payload) VALUES ");
            for (int i = 0; i < 305; i++) {
                jobs.append(i == 0 ? "" : ", ").append("(").append(i < 300 ? 1 : 2).append(", '")
                        .append(i < 300 ? "poison " + i : "job " + i).append("')");
            }
            TableActivationTest.execute(h, jobs.toString());
            Map<String, List<Long>> poison = new ConcurrentHashMap<>();
            List<String> delivered = new CopyOnWriteArrayList<>();
            TableRowListener bean = row -> {
                if (row.payloadText().startsWith("poison")) {
                    poison.computeIfAbsent(row.payloadText(), k -> new CopyOnWriteArrayList<>()).add(System.nanoTime());
                    throw new IllegalStateException("cannot handle " + row);
                }
                delivered.add(row.payloadText());
            };
            TableActivationSpec spec = TableActivationTest.jobSpec(h, "transactional");
            spec.setMaxReaders("1");
            spec.setMaxAttempts("2");
            spec.setRetryDelaySeconds("10");
            spec.setPollMillis("10");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation activation = TableActivationTest.activation(h, factory);
                await().atMost(Duration.ofSeconds(180)).until(() -> delivered.size() == 5
                        && activation.counts().setAside() == 300);
                assertEquals(300, poison.size(), "each failing row delivered");
                for (Map.Entry<String, List<Long>> e : poison.entrySet()) {
                    List<Long> at = e.getValue();
                    assertEquals(2, at.size(), e.getKey());
                    long gap = (at.get(1) - at.get(0)) / 1_000_000;
                    assertTrue(gap >= 9950, e.getKey() + " taken again after " + gap + " ms");
                }
                assertTrue(!log.messages(Level.FINE, "SSBJCA0131").isEmpty(), "held rows given back");
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    static List<Object[]> modes() {
        List<Object[]> all = new java.util.ArrayList<>();
        for (String kind : List.of("H2", "PostgreSQL")) {
            for (String mode : List.of("transactional", "leased")) {
                for (boolean attempts : List.of(true, false)) {
                    for (int readers : List.of(1, 3)) {
                        all.add(new Object[] {kind, mode, attempts, readers});
                    }
                }
            }
        }
        return all;
    }

    /**
     * Transactional, an attempts column, {@code maxAttempts} 3, no retry delay, 6 readers, ten rounds of a failing row
     * among good ones: each failing row is delivered exactly 3 times, as attempts 1, 2 and 3, then set aside; no other
     * reader takes it again before its failure is counted.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.ssbjca.inbound.table.TableActivationTest#databases")
    void theAttemptLimitHoldsExactlyWithSeveralReaders(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            TableActivationTest.createJobQueue(h);
            StringBuilder jobs = new StringBuilder("INSERT INTO Job_Queue (Priority, Payload) VALUES ");
            for (int i = 0; i < 10; i++) {
                jobs.append(i == 0 ? "" : ", ").append("(").append(i).append(", 'poison ").append(i).append("')");
                for (int j = 0; j < 5; j++) {
                    jobs.append(", (").append(i).append(", 'job ").append(i).append('.').append(j).append("')");
                }
            }
            TableActivationTest.execute(h, jobs.toString());
            Map<String, List<Integer>> poison = new ConcurrentHashMap<>();
            TableRowListener bean = row -> {
                if (row.payloadText().startsWith("poison")) {
                    poison.computeIfAbsent(row.payloadText(), k -> new CopyOnWriteArrayList<>()).add(row.attempt());
                    throw new IllegalStateException("cannot handle " + row);
                }
            };
            TableActivationSpec spec = TableActivationTest.jobSpec(h, "transactional");
            spec.setMaxReaders("6");
            spec.setMaxAttempts("3");
            spec.setRetryDelaySeconds("0");
            spec.setPollMillis("10");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation activation = TableActivationTest.activation(h, factory);
                await().atMost(Duration.ofSeconds(60)).until(() -> activation.counts().setAside() == 10
                        && activation.deliveredRows() == 50);
                for (int i = 0; i < 10; i++) {
                    assertEquals(List.of(1, 2, 3), poison.get("poison " + i), "poison " + i + ": " + poison);
                }
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /**
     * The seed 004 recipe of docs/guide/table-queues.md: the activation properties of its {@code WorkItemListener},
     * read from the page's Recipe section as written.
     */
    static TableActivationSpec recipe(InboundHarness h) throws Exception {
        String recipe = org.ssbjca.docs.Docs.section("docs/guide/table-queues.md", "## Recipe");
        String section = recipe.substring(0, recipe.indexOf("class WorkItemListener"));
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("propertyName = \"(\\w+)\", propertyValue = \"([^\"]*)\"").matcher(section);
        TableActivationSpec spec = new TableActivationSpec();
        spec.setResourceAdapter(h.ra);
        int properties = 0;
        while (m.find()) {
            String property = m.group(1);
            TableActivationSpec.class.getMethod("set" + Character.toUpperCase(property.charAt(0))
                    + property.substring(1), String.class).invoke(spec, m.group(2));
            properties++;
        }
        assertEquals(7, properties, "the recipe's properties found in the page");
        return spec;
    }

    /** Inserts the first row, then {@code good} rows enqueued after it, "m0", "m1"... */
    static void insertMessages(InboundHarness h, String first, int good) throws Exception {
        try (java.sql.Connection c = h.db.source().open(); java.sql.PreparedStatement ps = c.prepareStatement(
                "INSERT INTO Messaging.Message (MessageId, MessageBody, EnqueueTime) VALUES (?, ?, ?)")) {
            long start = System.currentTimeMillis() - 60_000;
            for (int i = -1; i < good; i++) {
                ps.setObject(1, java.util.UUID.randomUUID());
                ps.setBytes(2, (i < 0 ? first : "m" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                ps.setTimestamp(3, new java.sql.Timestamp(start + i + 1));
                ps.addBatch();
            }
            ps.executeBatch();
            c.commit();
        }
    }
}
