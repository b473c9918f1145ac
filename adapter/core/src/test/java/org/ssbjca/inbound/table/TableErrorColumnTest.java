package org.ssbjca.inbound.table;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.ResourceException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.api.UnrecoverableMessageException;
import org.ssbjca.docs.Docs;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.inbound.InboundHarness;

/**
 * Issue 47 point 3: a table activation's {@code errorColumn} holds each failed delivery's error, written with the
 * attempt it counts, cut to the column, and its {@code errorTimeColumn} the database's time then; a row that later
 * succeeds keeps them; a column the table lacks, or one that holds no text (no timestamp), fails the activation naming
 * the property. Seed 003's job queue, on H2 and PostgreSQL, in both modes, with
 * the column and property of docs/guide/table-queues.md as written.
 */
class TableErrorColumnTest {

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"H2, transactional", "H2, leased", "PostgreSQL, transactional", "PostgreSQL, leased"})
    void eachFailedDeliveryWritesItsErrorCutToTheColumn(String kind, String mode) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            TableActivationTest.createJobQueue(h);
            List<String> sql = new java.util.ArrayList<>(List.of(recipe("sql").split(";\\s*")));
            sql.add("INSERT INTO Job_Queue (Priority, Payload) VALUES (1, 'missing'), (2, 'long'), (3, 'refused'),"
                    + " (4, 'flaky')");
            TableActivationTest.execute(h, sql.toArray(String[]::new));
            java.sql.Timestamp before = databaseTime(h);
            AtomicInteger flaky = new AtomicInteger();
            List<String> delivered = new CopyOnWriteArrayList<>();
            TableRowListener bean = row -> {
                switch (row.payloadText()) {
                    case "missing" -> throw new IllegalStateException("order " + (41 + row.attempt()) + " not found");
                    case "long" -> throw new IllegalStateException("x".repeat(200));
                    case "refused" -> throw new UnrecoverableMessageException("closed");
                    default -> {
                        if (flaky.incrementAndGet() == 1) {
                            throw new IllegalStateException("once");
                        }
                    }
                }
                delivered.add(row.payloadText());
            };
            TableActivationSpec spec = TableActivationTest.jobSpec(h, mode);
            Map<String, String> properties = properties();
            spec.setErrorColumn(properties.get("errorColumn"));
            spec.setErrorTimeColumn(properties.get("errorTimeColumn"));
            spec.setMaxAttempts("2");
            spec.setRetryDelaySeconds("0");
            spec.setPollMillis("50");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, bean, true,
                    h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation a = TableActivationTest.activation(h, factory);
                await().atMost(Duration.ofSeconds(60)).until(() -> delivered.size() == 1
                        && a.counts().setAside() == 3);
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
            Map<String, String> errors = errors(h);
            assertEquals("java.lang.IllegalStateException: order 43 not found", errors.get("missing"),
                    "the last failure's error");
            assertEquals(("java.lang.IllegalStateException: " + "x".repeat(200)).substring(0, 60), errors.get("long"),
                    "cut to the column's 60 characters");
            assertEquals(UnrecoverableMessageException.class.getName() + ": closed", errors.get("refused"));
            assertEquals("java.lang.IllegalStateException: once", errors.get("flaky"),
                    "a row that succeeded later keeps its last error");
            assertEquals(4, count(h, "SELECT COUNT(*) FROM Job_Queue WHERE Last_Error_At >= ?", before),
                    "each error's time written, none before the test's start");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"H2", "PostgreSQL"})
    void aMissingOrNonTextErrorColumnFailsTheActivationNamingTheProperty(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            TableActivationTest.createJobQueue(h);
            for (String column : new String[] {"Nope", "Attempts"}) {
                TableActivationSpec spec = TableActivationTest.jobSpec(h, "transactional");
                spec.setErrorColumn(column);
                String message = refusal(h, spec);
                assertTrue(message.contains("errorColumn") && message.toLowerCase(java.util.Locale.ROOT)
                        .contains("job_queue") && message.contains(column.equals("Nope") ? "'Nope'" : "text"),
                        message);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"H2", "PostgreSQL"})
    void anErrorTimeColumnThatIsNoTimestampOrWithoutAnErrorColumnFailsTheActivationNamingIt(String kind)
            throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            TableActivationTest.createJobQueue(h);
            TableActivationTest.execute(h, "ALTER TABLE Job_Queue ADD Last_Error VARCHAR(60)");
            for (String error : new String[] {"Last_Error", ""}) {
                TableActivationSpec spec = TableActivationTest.jobSpec(h, "transactional");
                spec.setErrorColumn(error);
                spec.setErrorTimeColumn("Payload");
                String message = refusal(h, spec);
                assertTrue(message.contains("errorTimeColumn") && message.contains(error.isEmpty()
                        ? "needs errorColumn" : "not a timestamp"), message);
            }
        }
    }

    /**
     * Returns the refusal's message (and its cause's) when the activation of an idle bean with that spec fails, as it
     * must, with a ResourceException or an IllegalArgumentException.
     */
    private static String refusal(InboundHarness h, TableActivationSpec spec) {
        TableRowListener idle = row -> { };
        FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, idle, true,
                h.context.transactions());
        Exception e = assertThrows(Exception.class, () -> h.ra.endpointActivation(factory, spec));
        assertTrue(e instanceof ResourceException || e instanceof IllegalArgumentException, e.toString());
        return String.valueOf(e.getMessage()) + (e.getCause() == null ? "" : " / " + e.getCause().getMessage());
    }

    /** Returns the properties of the recipe (docs/guide/table-queues.md), by name. */
    static Map<String, String> properties() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : recipe("properties").split("\n")) {
            out.put(line.substring(0, line.indexOf('=')).strip(), line.substring(line.indexOf('=') + 1).strip());
        }
        return out;
    }

    private static java.sql.Timestamp databaseTime(InboundHarness h) throws Exception {
        try (Connection c = h.db.source().open(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT LOCALTIMESTAMP")) {
            rs.next();
            java.sql.Timestamp t = rs.getTimestamp(1);
            c.rollback();
            return t;
        }
    }

    private static int count(InboundHarness h, String sql, Object parameter) throws Exception {
        try (Connection c = h.db.source().open(); java.sql.PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, parameter);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                int n = rs.getInt(1);
                c.rollback();
                return n;
            }
        }
    }

    /** Returns the one line of the recipe's block in that language (docs/guide/table-queues.md). */
    static String recipe(String language) {
        String section = Docs.section("docs/guide/table-queues.md", "## The error of a set-aside row");
        int start = section.indexOf("```" + language + "\n") + language.length() + 4;
        return section.substring(start, section.indexOf("```", start)).strip();
    }

    /** Returns each row's error by its payload. */
    private static Map<String, String> errors(InboundHarness h) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = h.db.source().open(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT Payload, Last_Error FROM Job_Queue ORDER BY Priority")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getString(2));
            }
            c.rollback();
        }
        return out;
    }
}
