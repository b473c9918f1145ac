package org.ssbjca.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Clock;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ssbjca.docs.Docs;
import org.ssbjca.management.ConversationCountInfo;

/**
 * The tables of docs/reference/metrics.md, read from the page itself (as {@code MonitoringIT} reads the alert
 * rules): every metric they list is exported with the type they give, and every metric exported is listed.
 */
class ReadmeMetricsTest {

    /** A metric's name in a table's first column, without its labels ({@code ssb_conversation_endpoints{...}}). */
    private static final Pattern NAME = Pattern.compile("`(ssb_[a-z0-9_]+)");

    private final FakeAdapter adapter = new FakeAdapter();
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final AdapterMeters meters = new AdapterMeters(adapter.mbeans(), Clock.systemUTC());

    @BeforeEach
    void oneOfEachActivation() throws JMException {
        meters.registry = registry;
        adapter.start().activation("EchoService", "EchoServiceQueue").set("Backend", "H2[jdbc:h2:mem:broker]")
                .set("ConversationEndpoints", List.of(new ConversationCountInfo("EchoService", "CO", 1, new Date())));
        adapter.tableActivation("WorkService", "work_items");
    }

    @AfterEach
    void stopMeters() {
        meters.stop();
    }

    @Test
    void theReadmesTablesListEveryExportedMetricWithItsType() throws JMException, IOException {
        meters.follow();
        meters.readTables();

        assertEquals(readmeMetrics(), exportedMetrics());
    }

    /** @return metric name to type, from the table rows of the metrics page */
    private static Map<String, String> readmeMetrics() throws IOException {
        String section = Docs.page("docs/reference/metrics.md");
        Map<String, String> metrics = new TreeMap<>();
        section.lines().filter(l -> l.startsWith("| `ssb_")).forEach(row -> {
            String[] cells = row.split("\\|");
            Matcher names = NAME.matcher(cells[1]);
            while (names.find()) {
                metrics.put(names.group(1), cells[2].strip());
            }
        });
        return metrics;
    }

    /** @return metric name to type, of every series exported now */
    private Map<String, String> exportedMetrics() {
        Map<String, String> metrics = new TreeMap<>();
        Exposition.of(registry).forEach((series, s) -> metrics.put(series.substring(0, series.indexOf('{')), s.type()));
        return metrics;
    }
}
