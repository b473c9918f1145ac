package org.ssbjca.monitoring;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import javax.management.JMException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.management.ActivationMXBean;

/**
 * The readiness check {@code ssb-jca} as "Readiness" of docs/operations/monitoring.md describes it, over fake MXBeans.
 */
class AdapterReadinessTest {

    private static final Duration THRESHOLD = Duration.ofSeconds(5);
    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");
    private static final String ERROR = "Connection to localhost:5432 refused";

    private final FakeAdapter adapter = new FakeAdapter();

    @BeforeAll
    static void responses() {
        TestResponseBuilder.install();
    }

    @Test
    void downWhileNoAdapterIsRegistered() throws JMException {
        adapter.activation("EchoService", "EchoServiceQueue");

        assertResponse(Status.DOWN, Map.of("adapter", "not running"), check());
    }

    @Test
    void downOnceTheAdapterStopped() throws JMException {
        adapter.start().activation("EchoService", "EchoServiceQueue");
        adapter.stop();

        assertResponse(Status.DOWN, Map.of("adapter", "not running"), check());
    }

    @Test
    void upWithNoActivation() throws JMException {
        adapter.start();

        assertResponse(Status.UP, Map.of(), check());
    }

    @Test
    void upWithOneLinePerActivation() throws JMException {
        adapter.start().activation("EchoService", "EchoServiceQueue");
        adapter.activation("OrderService", "OrderQueue");

        assertResponse(Status.UP, Map.of("EchoService@EchoServiceQueue", "UP: reading EchoServiceQueue",
                "OrderService@OrderQueue", "UP: reading OrderQueue"), check());
    }

    @Test
    void downAtOnceWhileAQueueIsDisabled() throws JMException {
        adapter.start().activation("EchoService", "EchoServiceQueue")
                .set("QueueDisabled", true).set("FailingSince", failingFor(Duration.ZERO)).set("LastError", ERROR);
        adapter.activation("OrderService", "OrderQueue");

        assertResponse(Status.DOWN, Map.of("EchoService@EchoServiceQueue", "DOWN: queue EchoServiceQueue is disabled"
                + DISABLED_REASON, "OrderService@OrderQueue", "UP: reading OrderQueue"), check());
    }

    /** The reason and what to run, as docs/operations/broker-doctor.md says. */
    private static final String DISABLED_REASON = " (on SQL Server poison detection disables a queue after five rolled"
            + " back receives); its readers are parked: see lastFailedDelivery, then enableQueue on its MXBean"
            + " (docs/operations/broker-doctor.md)";

    @Test
    void upWhileReadersFailForLessThanTheThreshold() throws JMException {
        failing().set("FailingSince", failingFor(THRESHOLD.minusMillis(1)));

        assertResponse(Status.UP,
                Map.of("EchoService@EchoServiceQueue", "UP: readers failing for 4 s (" + ERROR + ")"), check());
    }

    @Test
    void downOnceReadersFailedForTheThreshold() throws JMException {
        failing().set("FailingSince", failingFor(THRESHOLD));

        assertResponse(Status.DOWN,
                Map.of("EchoService@EchoServiceQueue", "DOWN: readers failing for 5 s (" + ERROR + ")"), check());
    }

    @Test
    void oneActivationFailingTooLongIsEnoughForDown() throws JMException {
        failing().set("FailingSince", failingFor(Duration.ofMinutes(1)));
        adapter.activation("OrderService", "OrderQueue");

        assertResponse(Status.DOWN, Map.of(
                "EchoService@EchoServiceQueue", "DOWN: readers failing for 60 s (" + ERROR + ")",
                "OrderService@OrderQueue", "UP: reading OrderQueue"), check());
    }

    @Test
    void aTableActivationReadingIsOneUpLine() throws JMException {
        adapter.start().activation("EchoService", "EchoServiceQueue");
        adapter.tableActivation("JobService", "Job_Queue");

        assertResponse(Status.UP, Map.of("EchoService@EchoServiceQueue", "UP: reading EchoServiceQueue",
                "JobService@Job_Queue", "UP: reading table Job_Queue"), check());
    }

    @Test
    void aTableActivationsReadersFailingForTheThresholdAreDown() throws JMException {
        adapter.start().tableActivation("JobService", "Job_Queue").set("LastError", ERROR)
                .set("FailingSince", failingFor(THRESHOLD));
        adapter.tableActivation("MailService", "Mail_Queue").set("LastError", ERROR)
                .set("FailingSince", failingFor(THRESHOLD.minusMillis(1)));

        assertResponse(Status.DOWN, Map.of("JobService@Job_Queue", "DOWN: readers failing for 5 s (" + ERROR + ")",
                "MailService@Mail_Queue", "UP: readers failing for 4 s (" + ERROR + ")"), check());
    }

    /** Its readers scheduled, none with a thread of the work manager's long-running pool: it reads nothing. */
    @Test
    void downWhileEveryReaderOfAnActivationWaitsForAThread() throws JMException {
        adapter.start().activation("EchoService", "EchoServiceQueue").set("MaxReaders", 2).set("WaitingReaders", 2);
        adapter.tableActivation("JobService", "Job_Queue").set("ReaderCount", 1).set("WaitingReaders", 1);
        adapter.activation("OrderService", "OrderQueue").set("MaxReaders", 1);

        assertResponse(Status.DOWN, Map.of(
                "EchoService@EchoServiceQueue", "DOWN: not reading EchoServiceQueue: its 2 reader(s) all wait for a"
                        + " thread of the server's work manager (WaitingReaders, SSBJCA0014)",
                "JobService@Job_Queue", "DOWN: not reading table Job_Queue: its 1 reader(s) all wait for a thread of"
                        + " the server's work manager (WaitingReaders, SSBJCA0014)",
                "OrderService@OrderQueue", "UP: reading OrderQueue"), check());
    }

    /** Readers the work manager accepted, then refused (SSBJCA0015), can leave an activation with none at all. */
    @Test
    void downWhenAnActivationHasNoReaderLeft() throws JMException {
        adapter.start().activation("EchoService", "EchoServiceQueue").set("MaxReaders", 0).set("WaitingReaders", 0);
        adapter.activation("OrderService", "OrderQueue").set("MaxReaders", 1);

        assertResponse(Status.DOWN, Map.of(
                "EchoService@EchoServiceQueue", "DOWN: not reading EchoServiceQueue: it has no reader, the server's"
                        + " work manager refused them (SSBJCA0015)",
                "OrderService@OrderQueue", "UP: reading OrderQueue"), check());
    }

    @Test
    void upWhileSomeReadersWaitForAThreadSayingHowMany() throws JMException {
        adapter.start().activation("EchoService", "EchoServiceQueue").set("MaxReaders", 4).set("WaitingReaders", 1);

        assertResponse(Status.UP, Map.of("EchoService@EchoServiceQueue", "UP: reading EchoServiceQueue; 1 of its 4"
                + " reader(s) wait for a thread of the server's work manager (WaitingReaders, SSBJCA0014)"), check());
    }

    @Test
    void aFailureWithoutAnErrorTextSaysNoNull() throws JMException {
        adapter.start().activation("EchoService", "EchoServiceQueue").set("FailingSince", failingFor(THRESHOLD));

        assertResponse(Status.DOWN, Map.of("EchoService@EchoServiceQueue", "DOWN: readers failing for 5 s"), check());
    }

    @Test
    void theCheckIsAReadinessCheckAndNoLivenessOne() {
        assertTrue(AdapterReadiness.class.isAnnotationPresent(Readiness.class));
        assertFalse(AdapterReadiness.class.isAnnotationPresent(Liveness.class), "a database down restarts nothing");
    }

    @Test
    void thresholdIsTheConfigPropertyWithDefault30() throws NoSuchFieldException {
        ConfigProperty property = AdapterReadiness.class.getDeclaredField("failingSeconds")
                .getAnnotation(ConfigProperty.class);

        assertEquals("ssb.jca.readiness.failing-seconds", property.name());
        assertEquals("30", property.defaultValue());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 30, 86_400})
    void thresholdFrom0To86400IsAccepted(long seconds) {
        AdapterReadiness readiness = readiness(seconds);

        assertDoesNotThrow(() -> readiness.started(new Object()));
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, 86_401, Long.MAX_VALUE})
    void thresholdOutOfBoundsFailsTheDeploymentNamingTheProperty(long seconds) {
        AdapterReadiness readiness = readiness(seconds);

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> readiness.started(new Object()));
        assertEquals("ssb.jca.readiness.failing-seconds must be between 0 and 86400 (seconds), was " + seconds,
                e.getMessage());
    }

    /** @return an activation whose readers fail with {@link #ERROR} (the time they started failing left to the test) */
    private FakeMXBean<ActivationMXBean> failing() throws JMException {
        return adapter.start().activation("EchoService", "EchoServiceQueue").set("LastError", ERROR);
    }

    private static Date failingFor(Duration duration) {
        return Date.from(NOW.minus(duration));
    }

    private HealthCheckResponse check() {
        return AdapterReadiness.check(adapter.mbeans(), THRESHOLD, NOW);
    }

    private static AdapterReadiness readiness(long failingSeconds) {
        AdapterReadiness readiness = new AdapterReadiness();
        readiness.failingSeconds = failingSeconds;
        return readiness;
    }

    private static void assertResponse(Status status, Map<String, Object> data, HealthCheckResponse response) {
        assertEquals("ssb-jca", response.getName());
        assertEquals(data, response.getData().orElse(Map.of()), "the lines");
        assertEquals(status, response.getStatus(), () -> "the status, with " + response.getData());
    }
}
