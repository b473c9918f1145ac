package org.ssbjca.management;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.Conversation;
import org.ssbjca.fakes.LogRecords;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.InboundHarness;

/**
 * With {@code handleSystemMessages = END} an Error message from the other side ends this side without reaching the
 * bean; the adapter says so at WARN, with the error's code and description, and counts it.
 */
class ErrorsReceivedTest {

    @Test
    void anErrorFromThePeerIsLoggedAtWarnAndCounted() throws Exception {
        try (InboundHarness h = new InboundHarness();
                LogRecords log = LogRecords.of(Class.forName("org.ssbjca.inbound.BatchSorter"))) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> seen.add(m.messageTypeName());
            h.activate(BrokerMessageListener.class, bean, true, h.spec());
            EndpointActivation a = Jmx.onlyActivation(h);
            ActivationMXBean mx = Jmx.proxy(a);

            Conversation c = h.send("order");
            await("the request delivered").until(() -> seen.size() == 1);
            h.tx(s -> {
                s.endConversation(c.handle(), 4711, "the order was rejected");
                return null;
            });

            await("both sides ended").until(() -> h.query(x -> x.endpointCount()) == 0);
            assertEquals(List.of(InboundHarness.REQUEST), seen, "the Error never reached the bean");
            List<String> warnings = log.messages(Level.WARNING, "SSBJCA0044");
            assertEquals(1, warnings.size(), "one warning: " + warnings);
            assertTrue(warnings.get(0).contains("4711") && warnings.get(0).contains("the order was rejected"),
                    warnings.get(0));
            await("the Error counted").until(() -> mx.getErrorsReceived() == 1);
        }
    }
}
