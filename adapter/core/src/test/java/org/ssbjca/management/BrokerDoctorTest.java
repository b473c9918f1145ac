package org.ssbjca.management;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;

/**
 * docs/operations/broker-doctor.md, "On H2 and PostgreSQL", run as written (the page's statements, with this test's
 * queue for {@code EchoServiceQueue}): a queue disabled under a bean that keeps failing on one message parks the
 * readers and shows since when; the messages sent meanwhile are listed from the transmission queue with their status
 * and action; the suspect is the message the bean failed on last; {@code enableQueue} (or the page's UPDATE) lets
 * the readers deliver again.
 */
class BrokerDoctorTest {

    /** The conversation handle of the poison message on the receiving side, as the bean saw it. */
    private static final java.util.concurrent.atomic.AtomicReference<java.util.UUID> poisonHandle =
            new java.util.concurrent.atomic.AtomicReference<>();
    /** The queue readers' logger (their class is the inbound package's own). */
    private static final String READER_LOGGER = "org.ssbjca.inbound.QueueReader";
    private static final Path PAGE = Path.of("").toAbsolutePath().resolve("../../docs/operations/broker-doctor.md");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aDisabledQueueIsShownWithItsSuspectAndItsWaitingMessagesAndEnabledThroughTheMxBean(String backend)
            throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords readers = LogRecords.named(READER_LOGGER);
                LogRecords activations = LogRecords.of(EndpointActivation.class)) {
            List<String> got = new CopyOnWriteArrayList<>();
            ActivationMXBean mx = activate(h, got);
            h.send("poison");
            await("the bean failed on the poison message twice").until(() -> mx.getRolledBack() >= 2);

            h.execute(recipe("disable"));

            await("the disabled queue found").until(() -> mx.isQueueDisabled() && mx.getQueueDisabledSince() != null);
            Conversation waiting = h.send("sent while disabled");
            List<StuckTransmissionInfo> stuck = mx.listStuckTransmissions(100);
            assertEquals(1, stuck.size(), "the SEND waits in the transmission queue");
            assertEquals(InboundHarness.TARGET_QUEUE, stuck.get(0).getToService());
            assertEquals(waiting.handle().toString(), stuck.get(0).getConversation());
            assertNotNull(stuck.get(0).getEnqueued());
            assertEquals("The queue '" + InboundHarness.TARGET_QUEUE + "' is disabled.", stuck.get(0).getStatus());
            assertTrue(stuck.get(0).getAction().contains("enable it"), stuck.get(0).getAction());
            assertEquals(1, mx.getStuckTransmissionCount(), "the metric's count");
            String suspect = mx.lastFailedDelivery();
            assertNotNull(suspect, "the adapter counted the poison message's failures");
            assertTrue(suspect.startsWith("conversation " + poisonHandle.get() + " message 0: ")
                    && suspect.contains("poison refused"), suspect);
            long reconnects = mx.getReconnects();
            // parked: one probe every 2 s at most, where a backoff of 50 to 500 ms would retry each reader's connect
            org.awaitility.Awaitility.await("parked, not retrying").during(java.time.Duration.ofMillis(1500))
                    .atMost(java.time.Duration.ofSeconds(5)).until(() -> mx.getReconnects() - reconnects <= 1);

            // the page: "It says so once, at WARN, SSBJCA0260, naming the failed delivery the adapter counted last"
            List<String> parked = readers.messages(Level.WARNING, "SSBJCA0260");
            assertEquals(1, parked.size(), "once for the three readers: " + parked);
            assertTrue(parked.get(0).contains("queue " + InboundHarness.TARGET_QUEUE + " is disabled")
                    && parked.get(0).contains("poison refused"), parked.get(0));

            mx.enableQueue();

            List<String> enabled = activations.messages(Level.INFO, "SSBJCA0262");
            assertEquals(1, enabled.size(), enabled.toString());
            assertTrue(enabled.get(0).contains("an operator enabled queue " + InboundHarness.TARGET_QUEUE),
                    enabled.get(0));
            assertNull(mx.getQueueDisabledSince(), "the readers let go at once");
            await("delivered once enabled").until(() -> got.contains("sent while disabled"));
            await("QueueDisabled cleared as the readers read").until(() -> !mx.isQueueDisabled());
            assertTrue(mx.listStuckTransmissions(100).isEmpty(), "the transmission queue is empty");
            assertEquals(0, mx.getStuckTransmissionCount());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void theParkedReadersFindTheQueueEnabledByHand(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords readers = LogRecords.named(READER_LOGGER)) {
            List<String> got = new CopyOnWriteArrayList<>();
            ActivationMXBean mx = activate(h, got);
            h.execute(recipe("disable"));
            await("the disabled queue found").until(() -> mx.getQueueDisabledSince() != null);
            assertNull(mx.lastFailedDelivery(), "no failed delivery counted on it");
            h.send("after");

            h.execute(recipe("enable"));

            await("the prober found it enabled").until(() -> got.contains("after"));
            // a reader still waiting in its RECEIVE when the queue was disabled (not parked: only one reader need
            // find it) may take "after" once it is enabled; the mark then stays until the prober's next look, at most
            // DisabledQueue.PROBE_MILLIS later
            await("the disabled mark cleared").until(() -> mx.getQueueDisabledSince() == null);
            // the page: "the prober finds it so at its next look (SSBJCA0261)", once
            await("the prober says so").until(() -> !readers.messages(Level.INFO, "SSBJCA0261").isEmpty());
            List<String> again = readers.messages(Level.INFO, "SSBJCA0261");
            assertEquals(1, again.size(), again.toString());
            assertTrue(again.get(0).contains("queue " + InboundHarness.TARGET_QUEUE + " is enabled again"),
                    again.get(0));
        }
    }

    /**
     * A bean that refuses "poison" (its failures counted, one each 100 ms, not dead-lettered within the test), over
     * three readers.
     */
    private static ActivationMXBean activate(InboundHarness h, List<String> got) throws Exception {
        BrokerMessageListener bean = m -> {
            if (m.bodyAsText().equals("poison")) {
                poisonHandle.set(m.conversationHandle());
                throw new IllegalStateException("poison refused");
            }
            got.add(m.bodyAsText());
        };
        ServiceBrokerActivationSpec spec = h.spec();
        spec.setMaxReaders("3");
        spec.setMaxDeliveryAttempts("100");
        spec.setRedeliveryDelay("100");
        h.activate(BrokerMessageListener.class, bean, true, spec);
        return Jmx.proxy(Jmx.onlyActivation(h));
    }

    /** @return the page's SQL block after {@code <!-- recipe: name -->}, for this test's queue */
    static String recipe(String name) throws Exception {
        Matcher m = Pattern.compile("<!-- recipe: " + name + " -->\\s*```sql\\s*(.*?);?\\s*```", Pattern.DOTALL)
                .matcher(Files.readString(PAGE));
        assertTrue(m.find(), "the recipe " + name + " in " + PAGE);
        return m.group(1).replace("'EchoServiceQueue'", "'" + InboundHarness.TARGET_QUEUE + "'");
    }
}
