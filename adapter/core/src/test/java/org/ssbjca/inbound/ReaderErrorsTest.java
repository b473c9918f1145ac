package org.ssbjca.inbound;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.resource.spi.UnavailableException;
import jakarta.resource.spi.endpoint.MessageEndpoint;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAResource;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.fakes.FakeEndpointFactory;

/** An {@link Error} (not an exception) from the bean or from the container does not kill a reader. */
class ReaderErrorsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aReaderHitByAnErrorFromTheContainerRetriesInsteadOfDying() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> got = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> got.add(m.bodyAsText());
            FakeEndpointFactory fake = new FakeEndpointFactory(BrokerMessageListener.class, bean, true,
                    h.context.transactions());
            AtomicInteger created = new AtomicInteger();
            MessageEndpointFactory failingOnce = new ForwardingFactory(fake) {
                @Override
                public MessageEndpoint createEndpoint(XAResource xa) throws UnavailableException {
                    if (created.incrementAndGet() == 1) {
                        throw new NoClassDefFoundError("simulated: a class of the bean could not be loaded");
                    }
                    return fake.createEndpoint(xa);
                }
            };
            h.ra.endpointActivation(failingOnce, h.spec());
            EndpointActivation a = h.ra.activations().get(0);

            h.send("after the error");

            await().atMost(WAIT).until(() -> got.size() == 1);
            assertEquals(List.of("after the error"), got);
            assertEquals(1, a.readerCount());
            assertEquals(2, created.get(), "the reader survived the error and created its endpoint again");
        }
    }

    @Test
    void anErrorFromTheBeanIsAFailedDeliveryAndThePoisonIsDeadLettered() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            AtomicInteger calls = new AtomicInteger();
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (m.bodyAsText().equals("poison")) {
                    calls.incrementAndGet();
                    throw new AssertionError("the bean's own assertion failed");
                }
                done.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setMaxDeliveryAttempts("2");
            FakeEndpointFactory f = h.activate(BrokerMessageListener.class, bean, true, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("poison");
            h.send("fine");

            await().atMost(WAIT).until(() -> done.size() == 1 && a.metrics().deadLettered() == 1);
            assertEquals(2, calls.get(), "two failed deliveries, then dead-lettered");
            assertEquals(2, a.metrics().rolledBack());
            assertEquals(1, a.readerCount());
            assertEquals(0, f.pairingErrors.get());
        }
    }

    @Test
    void anErrorFromTheBeanAfterReceiveCommitsFirstIsNotCountedAsCommitted() throws Exception {
        try (InboundHarness h = new InboundHarness()) {
            List<String> done = new CopyOnWriteArrayList<>();
            BrokerMessageListener bean = m -> {
                if (m.bodyAsText().equals("boom")) {
                    throw new AssertionError("the bean's own assertion failed");
                }
                done.add(m.bodyAsText());
            };
            ServiceBrokerActivationSpec spec = h.spec();
            spec.setCommitBeforeDelivery("true");
            h.activate(BrokerMessageListener.class, bean, false, spec);
            EndpointActivation a = h.ra.activations().get(0);

            h.send("boom");
            h.send("fine");

            await().atMost(WAIT).until(() -> done.size() == 1);
            await().atMost(WAIT).until(() -> a.metrics().committed() + a.metrics().rolledBack() == 2);
            assertEquals(1, a.metrics().rolledBack(), "the delivery the bean failed with an Error");
            assertEquals(1, a.metrics().committed());
            assertEquals(1, a.readerCount());
        }
    }

    /** Passes everything to another factory; tests override what they change. */
    private static class ForwardingFactory implements MessageEndpointFactory {
        private final MessageEndpointFactory delegate;

        ForwardingFactory(MessageEndpointFactory delegate) {
            this.delegate = delegate;
        }

        @Override
        public MessageEndpoint createEndpoint(XAResource xa) throws UnavailableException {
            return delegate.createEndpoint(xa);
        }

        @Override
        public MessageEndpoint createEndpoint(XAResource xa, long timeout) throws UnavailableException {
            return createEndpoint(xa);
        }

        @Override
        public boolean isDeliveryTransacted(Method method) throws NoSuchMethodException {
            return delegate.isDeliveryTransacted(method);
        }

        @Override
        public String getActivationName() {
            return delegate.getActivationName();
        }

        @Override
        public Class<?> getEndpointClass() {
            return delegate.getEndpointClass();
        }
    }
}
