package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.backend.QueueSignals;
import org.ssbjca.fakes.FlightRecordings;
import org.ssbjca.support.ConnectEvent;
import org.ssbjca.support.DeliveryEvent;
import org.ssbjca.support.ReceiveEvent;
import org.ssbjca.support.WaitEvent;

/**
 * The adapter's flight recorder events, as the "Flight recorder events" section of docs/operations/monitoring.md
 * describes them: with every event on, a reader's wait, the RECEIVE that took a message and the bean's call, in that
 * order on the reader's thread, with their fields; with a recording's default settings, the bean's call only when it
 * took 20 ms or more and no wait.
 */
class FlightEventsTest {

    @ParameterizedTest
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aDeliveryIsRecordedAsTheWaitTheReceiveAndTheBeanCall(String backend) throws Exception {
        List<BrokerMessage> delivered = new CopyOnWriteArrayList<>();
        List<RecordedEvent> events;
        try (InboundHarness h = InboundBackends.harness(backend); Recording recording = new Recording()) {
            recording.enable(ReceiveEvent.NAME).withThreshold(Duration.ZERO);
            recording.enable(WaitEvent.NAME).withThreshold(Duration.ZERO);
            recording.enable(DeliveryEvent.NAME).withThreshold(Duration.ZERO);
            recording.start();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) delivered::add, true, spec);
            QueueSignals signals = h.ra.activations().get(0).database().broker().signals();
            await().until(() -> signals.waiters(InboundHarness.TARGET_QUEUE, true) == 1);
            h.send("one");
            await().until(() -> delivered.size() == 1);
            recording.stop();
            events = FlightRecordings.events(recording);
        }
        BrokerMessage message = delivered.get(0);
        RecordedEvent delivery = only(events, DeliveryEvent.NAME);
        long reader = delivery.getThread().getJavaThreadId();
        assertEquals(InboundHarness.TARGET_QUEUE, delivery.getString("queue"));
        assertEquals(1, delivery.getInt("messages"));
        assertEquals(message.conversationGroupId().toString(), delivery.getString("group"));
        assertTrue(delivery.getBoolean("succeeded"));

        // the RECEIVE that took it: on the reader's thread, before the bean's call
        RecordedEvent took = events.stream().filter(e -> e.getEventType().getName().equals(ReceiveEvent.NAME)
                && e.getInt("messages") == 1).findFirst().orElseThrow(() -> new AssertionError(
                        "no RECEIVE that took a message in " + events));
        assertEquals(reader, took.getThread().getJavaThreadId());
        assertEquals(InboundHarness.TARGET_QUEUE, took.getString("queue"));
        assertFalse(took.getEndTime().isAfter(delivery.getStartTime()), "the RECEIVE ends before the bean's call");

        // the wait it came out of: signalled by the send's commit, ended before that RECEIVE began
        RecordedEvent wait = events.stream().filter(e -> e.getEventType().getName().equals(WaitEvent.NAME)
                && e.getThread().getJavaThreadId() == reader && !e.getEndTime().isAfter(took.getStartTime()))
                .reduce((a, b) -> b).orElseThrow(() -> new AssertionError("no wait before the RECEIVE in " + events));
        assertTrue(wait.getBoolean("signalled"), wait.toString());
        assertEquals(InboundHarness.TARGET_QUEUE, wait.getString("queue"));
        long wakeUp = wait.getLong("wakeUp");
        assertTrue(wakeUp > 0 && wakeUp < wait.getDuration().toNanos(), "the wake-up, " + wakeUp
                + " ns, is part of a wait of " + wait.getDuration().toNanos() + " ns");
    }

    @ParameterizedTest
    @ValueSource(strings = {"H2"})
    void withTheDefaultSettingsOnlyABeanCallOfTwentyMillisecondsOrMoreIsRecorded(String backend) throws Exception {
        List<String> delivered = new CopyOnWriteArrayList<>();
        List<RecordedEvent> events;
        try (InboundHarness h = InboundBackends.harness(backend);
                Recording recording = new Recording(Configuration.getConfiguration("default"))) {
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> {
                String body = new String(m.body(), java.nio.charset.StandardCharsets.UTF_8);
                if (body.equals("slow")) {
                    try {
                        Thread.sleep(50); // the bean's own work: what the event's threshold is about
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                delivered.add(body);
            }, true, spec);
            recording.start();
            h.send("fast");
            h.send("slow");
            h.send("fast");
            await().until(() -> delivered.size() == 3);
            recording.stop();
            events = FlightRecordings.events(recording);
        }
        List<RecordedEvent> calls = events.stream().filter(e -> e.getEventType().getName().equals(
                DeliveryEvent.NAME)).toList();
        assertTrue(calls.stream().anyMatch(e -> e.getDuration().toMillis() >= 50), "the slow call: " + calls);
        assertTrue(calls.stream().allMatch(e -> e.getDuration().toMillis() >= 20), "only calls of 20 ms or more: "
                + calls);
        assertTrue(events.stream().noneMatch(e -> e.getEventType().getName().equals(WaitEvent.NAME)),
                "waits are off unless a recording turns them on");
        assertTrue(events.stream().filter(e -> e.getEventType().getName().equals(ReceiveEvent.NAME))
                .allMatch(e -> e.getDuration().toMillis() >= 20), "only RECEIVEs of 20 ms or more");
    }

    /**
     * A bean call that fails is recorded with {@code succeeded} false (and its redelivery's with true), a look that
     * found nothing as a {@code Receive} of 0 messages.
     */
    @ParameterizedTest
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aFailedCallAndAnEmptyLookAreRecordedAsSuch(String backend) throws Exception {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        List<RecordedEvent> events;
        try (InboundHarness h = InboundBackends.harness(backend); Recording recording = new Recording()) {
            recording.enable(ReceiveEvent.NAME).withThreshold(Duration.ZERO);
            recording.enable(DeliveryEvent.NAME).withThreshold(Duration.ZERO);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders("1");
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> {
                if (calls.incrementAndGet() == 1) {
                    throw new IllegalStateException("the first call fails");
                }
            }, true, spec);
            QueueSignals signals = h.ra.activations().get(0).database().broker().signals();
            await().until(() -> signals.waiters(InboundHarness.TARGET_QUEUE, true) == 1);
            recording.start();
            h.send("twice");
            await().until(() -> calls.get() == 2 && h.ra.activations().get(0).metrics().committed() == 1);
            // the reader's next look, after the delivery, finds nothing
            await().until(() -> signals.waiters(InboundHarness.TARGET_QUEUE, true) == 1);
            recording.stop();
            events = FlightRecordings.events(recording);
        }
        List<Boolean> outcomes = events.stream().filter(e -> e.getEventType().getName().equals(DeliveryEvent.NAME))
                .map(e -> e.getBoolean("succeeded")).toList();
        assertEquals(List.of(false, true), outcomes, "the failed call, then the redelivery's");
        assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals(ReceiveEvent.NAME)
                && e.getInt("messages") == 0), "an empty look: " + events);
    }

    /** A group listener's call is one {@code Delivery} event for all the messages it was given. */
    @ParameterizedTest
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aGroupListenersCallIsRecordedWithItsMessages(String backend) throws Exception {
        List<List<BrokerMessage>> calls = new CopyOnWriteArrayList<>();
        List<RecordedEvent> events;
        try (InboundHarness h = InboundBackends.harness(backend); Recording recording = new Recording()) {
            recording.enable(DeliveryEvent.NAME).withThreshold(Duration.ZERO);
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setReceiveBatchSize("100");
            h.send("1", "2", "3", "4");
            recording.start();
            h.activate(org.ssbjca.api.ConversationGroupListener.class,
                    (org.ssbjca.api.ConversationGroupListener) calls::add, true, spec);
            await().until(() -> !calls.isEmpty());
            recording.stop();
            events = FlightRecordings.events(recording);
        }
        RecordedEvent call = only(events, DeliveryEvent.NAME);
        assertEquals(4, call.getInt("messages"));
        assertEquals(calls.get(0).get(0).conversationGroupId().toString(), call.getString("group"));
        assertTrue(call.getBoolean("succeeded"));
    }

    /**
     * An activation's start is one {@code Connect} event for each of its readers, with the default settings; the
     * readers started together checked the queue once, the first of them at the reconnect gate, and the others relied
     * on that check.
     */
    @ParameterizedTest
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theReadersStartedTogetherCheckTheirQueueOnceAndEachConnectIsRecorded(String backend) throws Exception {
        int readers = 4;
        List<RecordedEvent> events;
        try (InboundHarness h = InboundBackends.harness(backend);
                Recording recording = new Recording(Configuration.getConfiguration("default"))) {
            recording.start();
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders(String.valueOf(readers));
            h.activate(BrokerMessageListener.class, (BrokerMessageListener) m -> { }, true, spec);
            QueueSignals signals = h.ra.activations().get(0).database().broker().signals();
            await().until(() -> signals.waiters(InboundHarness.TARGET_QUEUE, true) == readers);
            recording.stop();
            events = FlightRecordings.events(recording);
        }
        List<RecordedEvent> connects = events.stream().filter(e -> e.getEventType().getName().equals(
                ConnectEvent.NAME)).toList();
        assertEquals(readers, connects.size(), "one connect a reader: " + connects);
        assertEquals(readers, connects.stream().map(e -> e.getString("reader")).distinct().count(),
                connects.toString());
        assertTrue(connects.stream().allMatch(e -> InboundHarness.TARGET_QUEUE.equals(e.getString("queue"))
                && !e.getBoolean("reconnect")), "first connects of the queue's readers: " + connects);
        assertEquals(1, connects.stream().filter(e -> e.getBoolean("checked")).count(),
                "one reader checked, the others relied on its check: " + connects);
    }

    private static RecordedEvent only(List<RecordedEvent> events, String name) {
        List<RecordedEvent> of = events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
        assertEquals(1, of.size(), name + ": " + of);
        return of.get(0);
    }
}
