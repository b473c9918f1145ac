package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.fakes.FakeEndpointFactory;

/**
 * A delivery whose listener call fails outside the bean (WildFly's endpoint while the bean's component stops, during an
 * undeploy) never commits its RECEIVE: the adapter marks the container's transaction for rollback, which the container
 * then rolls back without a commit the reader's branch would refuse, and that branch votes to roll back should the
 * container commit all the same. Before, the container committed such a delivery (the exception never reached its
 * transaction interceptor) and the messages were gone without the bean having seen them: RedeployIT lost 12 of 1,200
 * over five undeploys under load, with 12 failed deliveries counted and nothing queued, prepared or dead-lettered.
 */
class ComponentStoppingTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aListenerCallThatFailsOutsideTheBeanRollsTheReceiveBack(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> seen.add(m.bodyAsText());
            ServiceBrokerActivationSpec spec = h.spec();
            // failed calls count as failed deliveries: room for all those made while the component stops
            spec.setMaxDeliveryAttempts("100");
            FakeEndpointFactory factory = h.activate(BrokerMessageListener.class, bean, true, spec);
            factory.componentStopping(true);
            h.send("one", "two", "three");
            await("deliveries attempted while stopping")
                    .until(() -> factory.commits.get() + factory.rollbacks.get() >= 2);
            factory.componentStopping(false);
            await("all three delivered once the component works again").until(() -> seen.size() == 3);
            assertEquals(List.of("one", "two", "three"), seen);
            await("queue drained").until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0);
            assertEquals(0, factory.refusedCommits.get(), "the container rolled the failed calls back itself");
        }
    }

    /**
     * docs/guide/inbound-mdbs.md: the reader's branch refuses to commit a delivery whose {@code onMessage} threw even
     * when the container would commit it, as for an application exception declared {@code
     * @ApplicationException(rollback = false)}.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aBeanExceptionTheContainerWouldCommitStillRollsTheReceiveBack(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            List<String> seen = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                seen.add(m.bodyAsText());
                if (seen.size() == 1) {
                    throw new IllegalStateException("an application exception the container does not roll back for");
                }
            };
            FakeEndpointFactory factory = h.activate(BrokerMessageListener.class, bean, true, h.spec());
            factory.commitOnBeanException(true);
            h.send("only");
            await("delivered again").until(() -> seen.size() == 2);
            assertEquals(List.of("only", "only"), seen, "the first delivery's RECEIVE rolled back");
            await("queue drained").until(() -> h.depth(InboundHarness.TARGET_QUEUE) == 0);
        }
    }
}
