package org.ssbjca.management;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.InboundBackends;
import org.ssbjca.inbound.InboundHarness;

/**
 * A priority request whose body holds no priority from 0 to 255 is not swallowed: it becomes a dead letter that says
 * why, a WARN names its conversation, and the activation counts it. Before, such a request was consumed with only a
 * DEBUG line: no delivery, no dead letter, no priority.
 */
class PriorityRequestsRejectedTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aMalformedPriorityRequestIsDeadLetteredWarnedAndCounted(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend);
                LogRecords log = LogRecords.of(Class.forName("org.ssbjca.inbound.BatchSorter"))) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> seen.add(m.bodyAsText());
            h.activate(BrokerMessageListener.class, bean, true, h.spec());
            EndpointActivation a = Jmx.onlyActivation(h);
            ActivationMXBean mx = Jmx.proxy(a);

            java.util.Map<String, java.util.UUID> conversationIds = java.util.Map.of(
                    "<priority>999</priority>", send(h, "a", "<priority>999</priority>").conversationId(),
                    "<priority>high</priority>", send(h, "b", "<priority>high</priority>").conversationId());
            send(h, "c", "<priority>7</priority>");

            await("the three requests delivered").until(() -> seen.size() == 3);
            await("two rejected priority requests counted").until(() -> mx.getPriorityRequestsRejected() == 2);
            await("and dead-lettered").until(() -> mx.getDeadLettered() == 2);
            List<DeadLetterInfo> letters = mx.listDeadLetters(10);
            assertEquals(2, letters.size(), "two dead letters");
            assertEquals(new TreeSet<>(List.of("<priority>999</priority>", "<priority>high</priority>")),
                    letters.stream().map(DeadLetterInfo::getBody).collect(Collectors.toCollection(TreeSet::new)));
            for (DeadLetterInfo letter : letters) {
                assertEquals(InboundHarness.SET_PRIORITY, letter.getMessageType());
                assertEquals(0, letter.getAttempts(), "never delivered");
                assertTrue(letter.getLastError().contains("0 to 255"), letter.getLastError());
            }
            List<String> warnings = log.messages(Level.WARNING, "SSBJCA0045");
            assertEquals(2, warnings.size(), "one warning each: " + warnings);
            for (DeadLetterInfo letter : letters) {
                // as SSBJCA0042 does: the conversation id, and the handle on this side
                String names = "conversation " + conversationIds.get(letter.getBody()) + " (handle "
                        + letter.getConversationHandle() + " here";
                assertTrue(warnings.stream().anyMatch(w -> w.contains(names)),
                        "a warning names " + names + ": " + warnings);
            }
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
        }
    }

    private static Conversation send(InboundHarness h, String body, String priority) {
        return h.tx(s -> {
            Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET, InboundHarness.CONTRACT,
                    DialogOptions.defaults());
            s.send(c.handle(), InboundHarness.REQUEST, body.getBytes(StandardCharsets.UTF_8));
            s.send(c.handle(), InboundHarness.SET_PRIORITY, priority.getBytes(StandardCharsets.UTF_8));
            return c;
        });
    }
}
