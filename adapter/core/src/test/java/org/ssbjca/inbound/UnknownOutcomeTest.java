package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.transaction.xa.XAResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.TableRowListener;
import org.ssbjca.fakes.FakeEndpointFactory;
import org.ssbjca.inbound.table.TableActivation;
import org.ssbjca.inbound.table.TableActivationSpec;
import org.ssbjca.inbound.table.TableActivationTest;

/**
 * The one committed rule ({@link DeliverySteps#committed}) on both reader paths: a transacted delivery whose
 * transaction ended without the reader's branch seeing a commit (its outcome unknown) does not count as committed,
 * however the bean returned. The container here says the bean is transacted but never enlists the reader's resource.
 */
class UnknownOutcomeTest {

    /** On PostgreSQL, whose XA connection outside a branch runs each statement in a transaction of its own. */
    @Test
    void aQueueDeliveryWithoutASeenCommitIsNotCounted() throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database("PostgreSQL"), true)) {
            List<String> got = new CopyOnWriteArrayList<>();
            FakeEndpointFactory container = new FakeEndpointFactory(BrokerMessageListener.class,
                    (BrokerMessageListener) m -> got.add(m.bodyAsText()), false, h.context.transactions());
            h.ra.endpointActivation(branchless(container), h.spec());
            h.send("a");
            EndpointActivation activation = h.ra.activations().get(0);
            ActivationMetrics metrics = activation.metrics();
            await().atMost(Duration.ofSeconds(30)).until(() -> metrics.committed.sum() + metrics.rolledBack.sum() >= 1);
            assertEquals(List.of("a"), got, "the bean returned");
            assertEquals(0, metrics.committed.sum(), "committed deliveries");
            assertTrue(metrics.rolledBack.sum() >= 1, "deliveries not committed: " + metrics.rolledBack.sum());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void aTableDeliveryWithoutASeenCommitIsNotCounted(String kind) throws Exception {
        try (InboundHarness h = new InboundHarness(TableActivationTest.database(kind), false)) {
            TableActivationTest.createMessages(h, 1);
            List<String> got = new CopyOnWriteArrayList<>();
            FakeEndpointFactory container = new FakeEndpointFactory(TableRowListener.class,
                    (TableRowListener) row -> got.add(row.payloadText()), false, h.context.transactions());
            MessageEndpointFactory factory = branchless(container);
            TableActivationSpec spec = TableActivationTest.messageSpec(h);
            h.ra.endpointActivation(factory, spec);
            try {
                TableActivation activation = h.ra.tableActivation(factory);
                await().atMost(Duration.ofSeconds(30)).until(() -> activation.deliveredRows()
                        + activation.failedDeliveries() >= 1);
                assertEquals("m0", got.get(0), "the bean returned");
                assertEquals(0, activation.deliveredRows(), "rows delivered in committed transactions");
                assertTrue(activation.failedDeliveries() >= 1, "deliveries not committed: "
                        + activation.failedDeliveries());
            } finally {
                h.ra.endpointDeactivation(factory, spec);
            }
        }
    }

    /** @return a container that calls the bean as transacted, but begins and ends no transaction on its resource */
    private static MessageEndpointFactory branchless(FakeEndpointFactory container) {
        return new MessageEndpointFactory() {
            @Override
            public MessageEndpoint createEndpoint(XAResource xaResource) throws UnavailableException {
                return container.createEndpoint(null);
            }

            @Override
            public MessageEndpoint createEndpoint(XAResource xaResource, long timeout) throws UnavailableException {
                return container.createEndpoint(null, timeout);
            }

            @Override
            public boolean isDeliveryTransacted(Method method) {
                return true;
            }

            @Override
            public String getActivationName() {
                return container.getActivationName();
            }

            @Override
            public Class<?> getEndpointClass() {
                return container.getEndpointClass();
            }
        };
    }
}
