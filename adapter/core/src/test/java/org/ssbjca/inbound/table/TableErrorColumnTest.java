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
 * attempt it counts, cut to the column; a row that later succeeds keeps it; a column the table lacks, or one that holds
 * no text, fails the activation naming the property. Seed 003's job queue, on H2 and PostgreSQL, in both modes, with
 * the column and property of docs/guide/table-queues.md as written.
 */
class TableErrorColumnTest {

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"H2, transactional", "H2, leased", "PostgreSQL, transactional", "PostgreSQL, leased"})
    void eachFailedDeliveryWritesItsErrorCutToTheColumn(String kind, String mode) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            TableActivationTest.createJobQueue(h);
            TableActivationTest.execute(h, recipe("sql").replace(";", ""),
                    "INSERT INTO Job_Queue (Priority, Payload) VALUES (1, 'missing'), (2, 'long'), (3, 'refused'),"
                            + " (4, 'flaky')");
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
            spec.setErrorColumn(recipe("properties").replace("errorColumn=", ""));
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
                TableRowListener idle = row -> { };
                FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class, idle, true,
                        h.context.transactions());
                Exception e = assertThrows(Exception.class, () -> h.ra.endpointActivation(factory, spec));
                String message = String.valueOf(e.getMessage()) + (e.getCause() == null ? ""
                        : " / " + e.getCause().getMessage());
                assertTrue(message.contains("errorColumn") && message.toLowerCase(java.util.Locale.ROOT)
                        .contains("job_queue") && message.contains(column.equals("Nope") ? "'Nope'" : "text"),
                        message);
                assertTrue(e instanceof ResourceException || e instanceof IllegalArgumentException, e.toString());
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
