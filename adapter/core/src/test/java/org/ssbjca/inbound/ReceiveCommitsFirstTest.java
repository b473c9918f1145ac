package org.ssbjca.inbound;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.ssbjca.inbound.QueueReaderTest.await;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;

/**
 * commitBeforeDelivery sets aside what the bean must not see, as a transacted delivery does: EndDialog (the adapter
 * ends this side itself, handleSystemMessages = END) and priority requests.
 */
class ReceiveCommitsFirstTest {

    @Test
    void endDialogEndsThisSideWithoutReachingTheBean() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> seen.add(m.messageTypeName() + ":" + m.bodyAsText());
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setCommitBeforeDelivery(true);
            h.activate(BrokerMessageListener.class, bean, true, spec);

            Conversation c = h.send("a");
            h.tx(s -> {
                s.endConversation(c.handle(), null, null);
                return null;
            });

            await(() -> h.query(a -> a.endpointCount()) == 0);
            assertEquals(List.of(InboundHarness.REQUEST + ":a"), seen, "the EndDialog never reached the bean");
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
        }
    }

    @Test
    void priorityRequestsAreConsumedWithoutReachingTheBean() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> seen.add(m.messageTypeName() + ":" + m.bodyAsText());
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setCommitBeforeDelivery(true);
            spec.setPriorityMessageType(InboundHarness.SET_PRIORITY);
            h.activate(BrokerMessageListener.class, bean, true, spec);

            h.tx(s -> {
                Conversation c = s.beginDialog(InboundHarness.INITIATOR, InboundHarness.TARGET,
                        InboundHarness.CONTRACT, org.ssbjca.api.DialogOptions.defaults());
                s.send(c.handle(), InboundHarness.REQUEST, "a".getBytes(UTF_8));
                s.send(c.handle(), InboundHarness.SET_PRIORITY, "<priority>7</priority>".getBytes(UTF_8));
                s.send(c.handle(), InboundHarness.REQUEST, "b".getBytes(UTF_8));
                return c;
            });

            await(() -> seen.size() == 2 && h.depth(InboundHarness.TARGET_QUEUE) == 0);
            assertEquals(List.of(InboundHarness.REQUEST + ":a", InboundHarness.REQUEST + ":b"), seen);
        }
    }
}
