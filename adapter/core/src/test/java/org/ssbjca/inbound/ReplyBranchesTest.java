package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.resource.spi.ManagedConnection;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.outbound.ServiceBrokerManagedConnectionFactory;

/**
 * What a transaction manager does when a transacted bean replies through the connection factory while it handles a
 * delivery and the container enlists the outbound managed connection in the delivery's transaction eagerly. Its
 * verbs run on the reader's connection, but its XA resource is a second resource manager to the transaction manager
 * (the H2 and PostgreSQL drivers' {@code isSameRM} is identity), so the delivery commits in two phases and the
 * reader's branch is prepared. WildFly enlists lazily (the factory's connections are lazily enlistable,
 * {@code LazyEnlistmentTest}): there the reply's verbs enlist nothing and the delivery commits in one phase, as the
 * outbound API page (docs/guide/outbound-api.md) says; this test keeps the eager case correct for containers that
 * enlist at once.
 */
class ReplyBranchesTest {

    @Test
    void aReplyingTransactedBeanCommitsInTwoPhases() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            ServiceBrokerManagedConnectionFactory mcf = new ServiceBrokerManagedConnectionFactory();
            mcf.setResourceAdapter(h.ra);
            List<ManagedConnection> used = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                try {
                    ManagedConnection mc = mcf.createManagedConnection(null, null);
                    used.add(mc);
                    FakeEndpointFactory.enlist(mc.getXAResource(), "outbound"); // as the connection manager does
                    try (ServiceBrokerConnection broker = (ServiceBrokerConnection) mc.getConnection(null, null)) {
                        broker.sendText(m.conversation(), InboundHarness.REQUEST, "echo: " + m.bodyAsText());
                        broker.endConversation(m.conversation());
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, true, h.spec());
            EndpointActivation a = h.ra.activations().get(0);

            h.send("ping");

            await().atMost(Duration.ofSeconds(20)).until(() -> a.metrics().committed() == 1);
            assertEquals(List.of("outbound start TMNOFLAGS", "reader prepare", "outbound prepare",
                    "outbound commit two-phase", "reader commit two-phase"), f.xaCalls,
                    "two resource managers: the reader's branch is prepared");
            assertEquals(2, h.depth(InboundHarness.INITIATOR_QUEUE), "the reply and the EndDialog committed");
            assertEquals(0, h.depth(InboundHarness.TARGET_QUEUE));
            for (ManagedConnection mc : used) {
                mc.destroy();
            }
        }
    }
}
