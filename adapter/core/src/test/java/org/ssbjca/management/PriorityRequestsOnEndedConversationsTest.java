package org.ssbjca.management;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;

/**
 * Malformed priority requests on a conversation the bean ends (issue 44, point 4): END CONVERSATION removes every
 * message of the conversation still in the queue, so a request queued behind the work the bean answered vanished
 * unseen (no dead letter, no SSBJCA0045, not counted). Each must be dead-lettered and counted whatever order the
 * messages came in and whatever the bean does with the conversation.
 */
class PriorityRequestsOnEndedConversationsTest {

    /** The bodies of the issue, as XML (the harness's priority message type is validated as well-formed XML). */
    private static final List<String> MALFORMED = List.of("<priority>abc</priority>", "<priority>300</priority>",
            "<priority>-1</priority>", "<foo/>", "<priority>2.5</priority>");

    /** What the bean does with the conversation after its reply. */
    enum Action { END, END_WITH_CLEANUP, END_WITH_ERROR, LEAVE_OPEN }

    /** W: a work message; R: the next malformed priority request. */
    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String backend : List.of("H2", "PostgreSQL")) {
            for (String order : List.of("WRRRRR", "RRRRRW", "WRWRRWRR")) {
                for (Action action : Action.values()) {
                    out.add(Arguments.of(backend, order, action, false));
                }
            }
            out.add(Arguments.of(backend, "WRWRRWRR", Action.END, true));
        }
        return out.stream();
    }

    /**
     * Two readers, as users run it; the scanner looks at the queue meanwhile. {@code commitBeforeDelivery}: the RECEIVE
     * commits first and the bean ends the conversation in a transaction of its own; with one reader only, since there
     * the other readers do not wait for the delivery: one may hold the group while the bean ends the conversation, and
     * what it has not taken goes with the end (docs/reference/mxbeans.md says so).
     */
    @ParameterizedTest(name = "{0} {1} {2} commitBeforeDelivery={3}")
    @MethodSource("cases")
    void everyMalformedRequestIsDeadLetteredAndCounted(String backend, String order, Action action,
            boolean commitBeforeDelivery) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords log = LogRecords.of(Class.forName("org.ssbjca.inbound.BatchSorter"))) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                seen.add(m.bodyAsText());
                h.withBrokerConnection(c -> {
                    c.sendText(m.conversation(), InboundHarness.REQUEST, "done: " + m.bodyAsText());
                    switch (action) {
                        case END -> c.endConversation(m.conversation());
                        case END_WITH_CLEANUP -> c.endConversationWithCleanup(m.conversation());
                        case END_WITH_ERROR -> c.endConversationWithError(m.conversation(), 42, "no more");
                        case LEAVE_OPEN -> { }
                    }
                });
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxReaders(commitBeforeDelivery ? "1" : "2");
            spec.setCommitBeforeDelivery(String.valueOf(commitBeforeDelivery));
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));

            send(h, order);

            await("the queue drained").until(() -> !seen.isEmpty() && h.depth(InboundHarness.TARGET_QUEUE) == 0);
            Awaitility.await("five rejected priority requests counted").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20)).untilAsserted(() -> assertEquals(5,
                            mx.getPriorityRequestsRejected(), "PriorityRequestsRejected"));
            assertEquals(5, mx.getDeadLettered(), "dead-lettered once each");
            assertEquals(order.length(), mx.getReceived(), "each message taken by a RECEIVE once, those taken before"
                    + " the end included");
            List<DeadLetterInfo> letters = mx.listDeadLetters(10);
            assertEquals(new TreeSet<>(MALFORMED),
                    letters.stream().map(DeadLetterInfo::getBody).collect(Collectors.toCollection(TreeSet::new)));
            for (DeadLetterInfo letter : letters) {
                assertEquals(InboundHarness.SET_PRIORITY, letter.getMessageType());
                assertEquals(0, letter.getAttempts(), "never delivered");
                assertTrue(letter.getLastError().contains("0 to 255"), letter.getLastError());
            }
            // the warning is logged once the batch committed, after the count: wait for it, then count exactly
            await("the warnings logged").until(() -> log.messages(Level.WARNING, "SSBJCA0045").size() >= 5);
            assertEquals(5, log.messages(Level.WARNING, "SSBJCA0045").size(), "one warning each");
        }
    }

    /**
     * {@code deadLetter=TABLE_AND_END_CONVERSATION}: the adapter's own END CONVERSATION WITH ERROR after a poison
     * message takes the malformed requests behind it first.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("ordersOnBackends")
    void theAdaptersOwnEndOnADeadLetterLosesNoneEither(String backend, String order) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords log = LogRecords.of(Class.forName("org.ssbjca.inbound.BatchSorter"))) {
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("1");
            spec.setDeadLetter("TABLE_AND_END_CONVERSATION");
            BrokerMessageListener bean = m -> {
                throw new IllegalStateException("poison");
            };
            h.activate(BrokerMessageListener.class, bean, true, spec);
            ActivationMXBean mx = Jmx.proxy(Jmx.onlyActivation(h));

            send(h, order);

            await("the queue drained").until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0);
            Awaitility.await("five rejected priority requests counted").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(20)).untilAsserted(() -> assertEquals(5,
                            mx.getPriorityRequestsRejected(), "PriorityRequestsRejected"));
            // the warning is logged once the batch committed, after the count: wait for it, then count exactly
            await("the warnings logged").until(() -> log.messages(Level.WARNING, "SSBJCA0045").size() >= 5);
            assertEquals(5, log.messages(Level.WARNING, "SSBJCA0045").size(), "one warning each");
            List<String> bodies = mx.listDeadLetters(20).stream().map(DeadLetterInfo::getBody).toList();
            assertTrue(bodies.containsAll(MALFORMED), bodies.toString());
            assertTrue(bodies.contains("work 1"), "the poison message too: " + bodies);
        }
    }

    static Stream<Arguments> ordersOnBackends() {
        return Stream.of("H2", "PostgreSQL").flatMap(b -> Stream.of("WRRRRR", "WRWRRWRR").map(o -> Arguments.of(b, o)));
    }

    /** Sends the messages in the order given, on one dialog, in one transaction. */
    private static Conversation send(InboundHarness h, String order) {
        return h.tx(s -> {
            Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET, InboundHarness.CONTRACT,
                    DialogOptions.defaults());
            int work = 0;
            int request = 0;
            for (char kind : order.toCharArray()) {
                if (kind == 'W') {
                    s.send(c.handle(), InboundHarness.REQUEST, bytes("work " + ++work));
                } else {
                    s.send(c.handle(), InboundHarness.SET_PRIORITY, bytes(MALFORMED.get(request++)));
                }
            }
            return c;
        });
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
