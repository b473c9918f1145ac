package org.ssbjca.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Set;
import javax.management.JMException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.ssbjca.management.ActivationMXBean;
import org.ssbjca.management.ConversationCountInfo;

/**
 * The per-database meters at {@code /prometheus} as docs/reference/metrics.md lists them (label {@code database}, the
 * MBean's {@code Backend}; endpoints also by {@code service} and {@code state}), from the readings the WAR makes every
 * few seconds ({@link AdapterMeters#readTables()}).
 */
class DatabaseMetersTest {

    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
    private static final String DATABASE = "POSTGRESQL[jdbc:postgresql://db/broker user=app password=****]";

    private final FakeAdapter adapter = new FakeAdapter();
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final AdapterMeters meters = new AdapterMeters(adapter.mbeans(), Clock.fixed(NOW, ZoneOffset.UTC));
    private FakeMXBean<ActivationMXBean> activation;

    @BeforeEach
    void anActivationOfTheDatabase() throws JMException {
        meters.registry = registry;
        adapter.start();
        activation = adapter.activation("EchoService", "EchoServiceQueue").set("Backend", DATABASE);
    }

    @AfterEach
    void stopMeters() {
        meters.stop();
    }

    @Test
    void theTransmissionQueueDepthIsAGaugeOfTheDatabase() {
        activation.set("TransmissionQueueDepth", 4L);

        meters.readTables();

        assertSeries(4, "ssb_transmission_queue_depth", "database", DATABASE);
    }

    @Test
    void theStuckTransmissionsAreAGaugeOfTheDatabase() {
        activation.set("StuckTransmissionCount", 2L);

        meters.readTables();

        assertSeries(2, "ssb_transmission_queue_stuck", "database", DATABASE);
    }

    @Test
    void endpointsAreAGaugeByServiceAndState() {
        activation.set("ConversationEndpoints", List.of(endpoints("ItClient", "CO", 100, null),
                endpoints("ItLeakQueueService", "DI", 7, null)));

        meters.readTables();

        assertSeries(100, "ssb_conversation_endpoints", "database", DATABASE, "service", "ItClient", "state", "CO");
        assertSeries(7, "ssb_conversation_endpoints", "database", DATABASE, "service", "ItLeakQueueService",
                "state", "DI");
    }

    @Test
    void theOldestEndpointsAgeIsShownWhereItsBeginIsKnown() {
        activation.set("ConversationEndpoints", List.of(endpoints("ItClient", "CO", 100, Duration.ofMillis(3_766)),
                endpoints("ItLeakQueueService", "DI", 7, null)));

        meters.readTables();

        assertSeries(3.766, "ssb_conversation_endpoints_oldest_age_seconds", "database", DATABASE,
                "service", "ItClient", "state", "CO");
        assertEquals(Set.of("ssb_conversation_endpoints"), Exposition.names(Exposition.of(registry),
                "database", DATABASE, "service", "ItLeakQueueService", "state", "DI"), "no age without a begin");
    }

    @Test
    void aReadingUpdatesTheValuesAndRemovesTheRowsThatAreGone() {
        activation.set("ConversationEndpoints", List.of(endpoints("ItClient", "DO", 7, Duration.ofMinutes(1))));
        meters.readTables();

        activation.set("ConversationEndpoints", List.of(endpoints("ItClient", "CO", 3, null)));
        meters.readTables();

        assertEquals(Set.of(series("ssb_conversation_endpoints", "CO"),
                Exposition.series("ssb_transmission_queue_depth", "database", DATABASE),
                Exposition.series("ssb_transmission_queue_stuck", "database", DATABASE)),
                Exposition.of(registry).keySet());
        assertSeries(3, "ssb_conversation_endpoints", "database", DATABASE, "service", "ItClient", "state", "CO");
    }

    @Test
    void eachDatabaseHasItsOwnSeries() throws JMException {
        String other = "H2[jdbc:h2:mem:other user=sa]";
        activation.set("TransmissionQueueDepth", 4L);
        adapter.activation("OrderService", "OrderQueue").set("Backend", other).set("TransmissionQueueDepth", 5L);

        meters.readTables();

        assertSeries(4, "ssb_transmission_queue_depth", "database", DATABASE);
        assertSeries(5, "ssb_transmission_queue_depth", "database", other);
    }

    @Test
    void stoppedMetersRemoveTheDatabasesSeries() {
        activation.set("ConversationEndpoints", List.of(endpoints("ItClient", "CO", 3, null)));
        meters.readTables();

        meters.stop();

        assertEquals(Set.of(), Exposition.of(registry).keySet());
    }

    private static ConversationCountInfo endpoints(String service, String state, long count, Duration age) {
        return new ConversationCountInfo(service, state, count, age == null ? null : Date.from(NOW.minus(age)));
    }

    private static String series(String metric, String state) {
        return Exposition.series(metric, "database", DATABASE, "service", "ItClient", "state", state);
    }

    private void assertSeries(double value, String metric, String... labels) {
        Exposition.assertSeries(registry, "gauge", value, metric, labels);
    }
}
