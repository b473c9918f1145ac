package org.ssbjca.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ssbjca.monitoring.Exposition.series;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.JMException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.ssbjca.management.ActivationMXBean;
import org.ssbjca.monitoring.Exposition.Series;

/**
 * The meters at {@code /prometheus} as the tables of docs/reference/metrics.md list them: name, type, labels, and the
 * MBean attribute each one reads; and how they follow activations deployed and undeployed.
 */
class AdapterMetersTest {

    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

    private static final String BEAN = "EchoService";
    private static final String QUEUE = "EchoServiceQueue";
    private static final String[] LABELS = {"activation", BEAN + "@" + QUEUE, "queue", QUEUE};

    private static final String TABLE_BEAN = "WorkService";
    private static final String TABLE = "work_items";
    private static final String[] TABLE_LABELS = {"activation", TABLE_BEAN + "@" + TABLE, "table", TABLE};

    /** The documented metrics of a queue activation. */
    private static final Set<String> QUEUE_METRICS = Set.of("ssb_messages_received_total",
            "ssb_messages_delivered_total", "ssb_deliveries_committed_total", "ssb_deliveries_rolled_back_total",
            "ssb_messages_redelivered_total", "ssb_messages_dead_lettered_total", "ssb_errors_received_total",
            "ssb_priority_requests_rejected_total", "ssb_delivery_seconds_count", "ssb_delivery_seconds_sum",
            "ssb_delivery_time_p99_seconds", "ssb_readers_max", "ssb_readers_waiting", "ssb_readers_active",
            "ssb_readers_parked", "ssb_readers_reconnecting", "ssb_reader_reconnects_total",
                    "ssb_readers_failing_seconds",
            "ssb_activation_paused", "ssb_queue_disabled", "ssb_queue_depth", "ssb_queue_oldest_message_age_seconds",
            "ssb_conversation_groups_pending", "ssb_dead_letters", "ssb_activation_breaker_open",
            "ssb_activation_breaker_trips_total", "ssb_readers_breaker_parked");

    /** The documented metrics of a table activation. */
    private static final Set<String> TABLE_METRICS = Set.of("ssb_table_rows_delivered_total",
            "ssb_table_deliveries_failed_total", "ssb_table_leases_lost_total", "ssb_table_readers",
            "ssb_table_readers_waiting", "ssb_table_rows_available", "ssb_table_rows_waiting", "ssb_table_rows_leased",
            "ssb_table_rows_set_aside", "ssb_table_oldest_row_age_seconds", "ssb_table_readers_failing_seconds",
            "ssb_table_breaker_open", "ssb_table_readers_breaker_parked");

    private final FakeAdapter adapter = new FakeAdapter();
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final AdapterMeters meters = new AdapterMeters(adapter.mbeans(), Clock.fixed(NOW, ZoneOffset.UTC));

    @BeforeEach
    void adapterRuns() throws JMException {
        meters.registry = registry;
        adapter.start();
    }

    @AfterEach
    void stopMeters() {
        meters.stop();
    }

    @Test
    void aQueueActivationHasExactlyTheReadmesMetricsWithItsActivationAndQueue() throws JMException {
        adapter.activation(BEAN, QUEUE);
        meters.follow();

        assertEquals(withLabels(QUEUE_METRICS, LABELS), scrape().keySet());
    }

    @ParameterizedTest(name = "{0} is a {1} of {2}")
    @CsvSource({
        "ssb_messages_received_total, counter, Received",
        "ssb_messages_delivered_total, counter, Delivered",
        "ssb_deliveries_committed_total, counter, Committed",
        "ssb_deliveries_rolled_back_total, counter, RolledBack",
        "ssb_messages_redelivered_total, counter, Redelivered",
        "ssb_messages_dead_lettered_total, counter, DeadLettered",
        "ssb_errors_received_total, counter, ErrorsReceived",
        "ssb_priority_requests_rejected_total, counter, PriorityRequestsRejected",
        "ssb_reader_reconnects_total, counter, Reconnects",
        "ssb_activation_breaker_trips_total, counter, BreakerTrips",
        "ssb_delivery_seconds_count, summary, TimedDeliveries",
        "ssb_readers_max, gauge, MaxReaders",
        "ssb_readers_waiting, gauge, WaitingReaders",
        "ssb_readers_active, gauge, ActiveReaders",
        "ssb_readers_parked, gauge, ParkedReaders",
        "ssb_readers_breaker_parked, gauge, BreakerParkedReaders",
        "ssb_readers_reconnecting, gauge, ReconnectingReaders",
        "ssb_queue_depth, gauge, QueueDepth",
        "ssb_queue_oldest_message_age_seconds, gauge, OldestMessageAgeSeconds",
        "ssb_conversation_groups_pending, gauge, PendingConversationGroupCount",
        "ssb_dead_letters, gauge, DeadLetterCount",
    })
    void aQueueActivationsMetricReadsItsAttribute(String metric, String type, String attribute) throws JMException {
        adapter.activation(BEAN, QUEUE).setNumber(attribute, 7);
        meters.follow();

        assertSeries(type, 7, metric, LABELS);
    }

    @ParameterizedTest(name = "{0} is 1 while {1}")
    @CsvSource({"ssb_activation_paused, Paused", "ssb_queue_disabled, QueueDisabled"})
    void aFlagIsOneWhileSetAndZeroOtherwise(String metric, String attribute) throws JMException {
        FakeMXBean<ActivationMXBean> activation = adapter.activation(BEAN, QUEUE).set(attribute, true);
        meters.follow();

        assertSeries("gauge", 1, metric, LABELS);
        activation.set(attribute, false);
        assertSeries("gauge", 0, metric, LABELS);
    }

    @Test
    void theDeliveryTimeSummaryIsInSeconds() throws JMException {
        adapter.activation(BEAN, QUEUE).set("TimedDeliveries", 500L).set("TotalDeliveryMillis", 1883.5);
        meters.follow();

        assertSeries("summary", 500, "ssb_delivery_seconds_count", LABELS);
        assertSeries("summary", 1.8835, "ssb_delivery_seconds_sum", LABELS);
    }

    @Test
    void theP99DeliveryTimeIsInSeconds() throws JMException {
        adapter.activation(BEAN, QUEUE).set("P99DeliveryMillis", 19.5);
        meters.follow();

        assertSeries("gauge", 0.0195, "ssb_delivery_time_p99_seconds", LABELS);
    }

    @Test
    void readersFailingSecondsIsTheTimeSinceFailingSince() throws JMException {
        adapter.activation(BEAN, QUEUE).set("FailingSince", Date.from(NOW.minus(Duration.ofMillis(100_500))));
        meters.follow();

        assertSeries("gauge", 100.5, "ssb_readers_failing_seconds", LABELS);
    }

    @Test
    void aTableActivationsReadersFailingSecondsIsTheTimeSinceFailingSince() throws JMException {
        adapter.tableActivation(TABLE_BEAN, TABLE).set("FailingSince", Date.from(NOW.minus(Duration.ofMillis(42_250))));
        meters.follow();

        assertSeries("gauge", 42.25, "ssb_table_readers_failing_seconds", TABLE_LABELS);
    }

    @Test
    void readersFailingSecondsIsZeroWhileTheyRead() throws JMException {
        adapter.activation(BEAN, QUEUE).set("Delivered", 7L);
        meters.follow();

        assertSeries("gauge", 0, "ssb_readers_failing_seconds", LABELS);
    }

    @Test
    void aTableActivationHasExactlyTheReadmesMetricsWithItsActivationAndTable() throws JMException {
        adapter.tableActivation(TABLE_BEAN, TABLE);
        meters.follow();

        assertEquals(withLabels(TABLE_METRICS, TABLE_LABELS), scrape().keySet());
    }

    @ParameterizedTest(name = "{0} is a {1} of {2}")
    @CsvSource({
        "ssb_table_rows_delivered_total, counter, DeliveredRows",
        "ssb_table_deliveries_failed_total, counter, FailedDeliveries",
        "ssb_table_leases_lost_total, counter, LeasesLost",
        "ssb_table_readers, gauge, ReaderCount",
        "ssb_table_readers_waiting, gauge, WaitingReaders",
        "ssb_table_rows_available, gauge, AvailableRows",
        "ssb_table_rows_waiting, gauge, WaitingRows",
        "ssb_table_rows_leased, gauge, LeasedRows",
        "ssb_table_rows_set_aside, gauge, SetAsideRows",
        "ssb_table_oldest_row_age_seconds, gauge, OldestAvailableAgeSeconds",
        "ssb_table_readers_breaker_parked, gauge, BreakerParkedReaders",
    })
    void aTableActivationsMetricReadsItsAttribute(String metric, String type, String attribute) throws JMException {
        adapter.tableActivation(TABLE_BEAN, TABLE).setNumber(attribute, 7);
        meters.follow();

        assertSeries(type, 7, metric, TABLE_LABELS);
    }

    @Test
    void aGaugeThatCannotBeReadIsNaN() throws JMException {
        adapter.activation(BEAN, QUEUE).fail("QueueDepth");
        adapter.tableActivation(TABLE_BEAN, TABLE).fail("AvailableRows");
        meters.follow();

        assertSeries("gauge", Double.NaN, "ssb_queue_depth", LABELS);
        assertSeries("gauge", Double.NaN, "ssb_table_rows_available", TABLE_LABELS);
    }

    @Test
    void theOldestRowAgeIsMinusOneWithNoRow() throws JMException {
        adapter.tableActivation(TABLE_BEAN, TABLE).set("OldestAvailableAgeSeconds", -1L);
        meters.follow();

        assertSeries("gauge", -1, "ssb_table_oldest_row_age_seconds", TABLE_LABELS);
    }

    @Test
    void aTableActivationsLabelIsBeanAtTableWhenItsMBeanNameIsQuoted() throws JMException {
        adapter.tableActivation(TABLE_BEAN, "work items").setNumber("DeliveredRows", 7);
        meters.follow();

        assertSeries("counter", 7, "ssb_table_rows_delivered_total",
                "activation", TABLE_BEAN + "@work items", "table", "work items");
    }

    @Test
    void anActivationDeployedLaterGetsItsMeters() throws JMException {
        meters.follow();
        adapter.activation(BEAN, QUEUE).setNumber("Delivered", 7);
        adapter.tableActivation(TABLE_BEAN, TABLE).setNumber("DeliveredRows", 8);

        assertSeries("counter", 7, "ssb_messages_delivered_total", LABELS);
        assertSeries("counter", 8, "ssb_table_rows_delivered_total", TABLE_LABELS);
        assertEquals(QUEUE_METRICS.size() + TABLE_METRICS.size(), scrape().size());
    }

    @Test
    void anUndeployedActivationLosesItsMetersAndNoOtherOne() throws JMException {
        adapter.activation(BEAN, QUEUE);
        adapter.activation("OrderService", "OrderQueue");
        adapter.tableActivation(TABLE_BEAN, TABLE);
        meters.follow();

        adapter.undeploy(BEAN, QUEUE);
        adapter.undeployTable(TABLE_BEAN, TABLE);

        assertEquals(withLabels(QUEUE_METRICS, "activation", "OrderService@OrderQueue", "queue", "OrderQueue"),
                scrape().keySet());
    }

    /**
     * Two beans of one simple name on one queue (the second MBean {@code ,instance=2}): each has its own series, the
     * second's activation label {@code Bean@queue#2}, and undeploying one leaves the other's.
     */
    @Test
    void twoActivationsOfOneNameHaveSeriesOfTheirOwn() throws JMException {
        adapter.activation(BEAN, QUEUE).set("Delivered", 7L);
        adapter.secondActivation(BEAN, QUEUE).set("Delivered", 8L);
        meters.follow();

        assertSeries("counter", 7, "ssb_messages_delivered_total", LABELS);
        assertSeries("counter", 8, "ssb_messages_delivered_total", "activation", BEAN + "@" + QUEUE + "#2",
                "queue", QUEUE);
        adapter.undeploy(BEAN, QUEUE);
        assertEquals(withLabels(QUEUE_METRICS, "activation", BEAN + "@" + QUEUE + "#2", "queue", QUEUE),
                scrape().keySet());
    }

    @Test
    void aRedeployedActivationCountsFromItsNewStart() throws JMException {
        adapter.activation(BEAN, QUEUE).setNumber("Delivered", 500);
        adapter.tableActivation(TABLE_BEAN, TABLE).setNumber("DeliveredRows", 300);
        meters.follow();

        adapter.undeploy(BEAN, QUEUE);
        adapter.undeployTable(TABLE_BEAN, TABLE);
        adapter.activation(BEAN, QUEUE).setNumber("Delivered", 7);
        adapter.tableActivation(TABLE_BEAN, TABLE).setNumber("DeliveredRows", 8);

        assertSeries("counter", 7, "ssb_messages_delivered_total", LABELS);
        assertSeries("counter", 8, "ssb_table_rows_delivered_total", TABLE_LABELS);
        assertEquals(QUEUE_METRICS.size() + TABLE_METRICS.size(), scrape().size());
    }

    @Test
    void stoppedMetersAreRemovedAndFollowNoActivation() throws JMException {
        adapter.activation(BEAN, QUEUE);
        meters.follow();

        meters.stop();
        adapter.tableActivation(TABLE_BEAN, TABLE);

        assertEquals(Map.of(), scrape());
    }

    private Map<String, Series> scrape() {
        return Exposition.of(registry);
    }

    private void assertSeries(String type, double value, String metric, String... labels) {
        Exposition.assertSeries(registry, type, value, metric, labels);
    }

    private static Set<String> withLabels(Set<String> metrics, String... labels) {
        return metrics.stream().map(m -> series(m, labels)).collect(Collectors.toSet());
    }
}
