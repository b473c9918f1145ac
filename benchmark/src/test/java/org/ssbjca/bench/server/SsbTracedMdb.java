package org.ssbjca.bench.server;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/**
 * The tracing phase's bean: {@link SsbBenchMdb}'s work, in a CDI deployment of a server with the
 * {@code opentelemetry} subsystem, and a look at the span current in the call ({@link TraceCounts}): the adapter's
 * consumer span when the message carries the loader's trace context, none when it carries no context.
 */
@MessageDriven(name = "SsbTracedMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "BenchQueue"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "4")
})
@ResourceAdapter("ssb-jca.rar")
public class SsbTracedMdb implements BrokerMessageListener {

    @Resource
    private TransactionSynchronizationRegistry registry;

    @Override
    public void onMessage(BrokerMessage message) {
        SpanContext current = Span.current().getSpanContext();
        TraceCounts.seen(current.isValid() ? current.getTraceId() : null, current.getSpanId());
        Recorder.delivered(registry, 1, message.bodyAsText());
    }
}
