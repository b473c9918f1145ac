package org.ssbjca.inbound.table;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.spi.InvalidPropertyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;

/**
 * A table reader waits after a failed turn as its activation's {@code reconnect*} properties say, like a queue
 * reader; the properties are validated as a queue activation's are.
 */
class TableReaderBackoffTest {

    /**
     * The table is missing: each turn fails; with no jitter the waits are exactly the first delay, then doubled,
     * capped at the longest.
     */
    @Test
    void aFailingTableReaderWaitsTheConfiguredBackoff() throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database("H2"), false);
                LogRecords log = LogRecords.of(TableReader.class)) {
            TableActivationSpec spec = TableActivationTest.jobSpec(h, "transactional"); // no Job_Queue table
            spec.setReconnectInitialMillis("40");
            spec.setReconnectMaxMillis("80");
            spec.setReconnectJitter("0");
            FakeEndpointFactory factory = new FakeEndpointFactory(TableRowListener.class,
                    (TableRowListener) row -> { }, true, h.context.transactions());
            h.ra.endpointActivation(factory, spec);
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> log.messages(Level.FINE, "SSBJCA0119").size() >= 2);
                List<String> first = log.messages(Level.WARNING, "SSBJCA0114");
                assertEquals(1, first.size(), first.toString());
                assertTrue(first.get(0).contains("failure 1 in a row); retrying in 40 ms"), first.get(0));
                List<String> again = log.messages(Level.FINE, "SSBJCA0119");
                assertTrue(again.get(0).contains("failure 2 in a row); retrying in 80 ms"), again.get(0));
                assertTrue(again.get(1).contains("failure 3 in a row); retrying in 80 ms"), again.get(1));
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({"reconnectInitialMillis, 9", "reconnectInitialMillis, 600001", "reconnectMaxMillis, 499",
            "reconnectMaxMillis, 3600001", "reconnectJitter, 1.1", "reconnectJitter, -0.1", "reconnectJitter, NaN"})
    void anOutOfRangeBackoffIsRefusedNamingItsProperty(String property, String value) throws Exception {
        TableActivationSpec spec = new TableActivationSpec();
        spec.setTable("Job_Queue");
        spec.setKeyColumn("ID");
        spec.setPayloadColumn("Payload");
        spec.setConnectionUrl("jdbc:h2:mem:backoff");
        TableActivationSpec.class.getMethod("set" + Character.toUpperCase(property.charAt(0))
                + property.substring(1), String.class).invoke(spec, value);
        InvalidPropertyException e = assertThrows(InvalidPropertyException.class, spec::validate);
        assertTrue(e.getMessage().contains("'" + property + "'"), e.getMessage());
    }

    @Test
    void theDefaultsAreAQueueActivationsDefaults() {
        TableActivationSpec table = new TableActivationSpec();
        ServiceBrokerActivationSpec queue = new ServiceBrokerActivationSpec();
        assertEquals(queue.getReconnectInitialMillis(), table.getReconnectInitialMillis());
        assertEquals(queue.getReconnectMaxMillis(), table.getReconnectMaxMillis());
        assertEquals(queue.getReconnectJitter(), table.getReconnectJitter());
    }

    /**
     * The guide's table gives the spec's defaults, and its recipe's properties, set as written, pass validation with
     * the backoff they say.
     */
    @Test
    void theGuideSaysTheSpecsDefaultsAndItsRecipeIsValid() throws Exception {
        String guide = Files.readString(Path.of(System.getProperty("basedir", "."))
                .resolve("../../docs/guide/table-readers.md"));
        Matcher row = Pattern.compile("(?m)^\\| `(reconnect[A-Za-z]+)` \\| `([^`]+)` \\|").matcher(guide);
        TableActivationSpec defaults = new TableActivationSpec();
        int rows = 0;
        while (row.find()) {
            assertEquals(row.group(2), TableActivationSpec.class.getMethod("get" + capitalized(row.group(1)))
                    .invoke(defaults), row.group(1));
            rows++;
        }
        assertEquals(3, rows, "the guide's rows");
        TableActivationSpec spec = new TableActivationSpec();
        spec.setConnectionUrl("jdbc:h2:mem:backoff");
        Matcher property = Pattern.compile("propertyName = \"(\\w+)\", propertyValue = \"([^\"]*)\"")
                .matcher(guide);
        int set = 0;
        while (property.find()) {
            TableActivationSpec.class.getMethod("set" + capitalized(property.group(1)), String.class).invoke(spec,
                    property.group(2));
            set++;
        }
        assertEquals(6, set, "the recipe's properties");
        spec.validate();
        TableSettings settings = new TableSettings(spec);
        assertEquals(100, settings.reconnectInitialMillis);
        assertEquals(10_000, settings.reconnectMaxMillis);
        assertEquals(0.2, settings.reconnectJitter);
    }

    private static String capitalized(String property) {
        return Character.toUpperCase(property.charAt(0)) + property.substring(1);
    }
}
