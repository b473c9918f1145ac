package org.ssbjca.it.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.it.beans.Recorder;
import org.ssbjca.it.support.BrokerDb;

/**
 * On {@value TracingIT#REQUEST_QUEUE}: records the trace id current when the adapter calls it ({@code request:}), then
 * in a span of its own ({@code own:}, its span id after a slash) replies on the conversation.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = TracingIT.REQUEST_QUEUE),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "2000")
})
@ResourceAdapter("ssb-jca.rar")
public class TracedRequestService implements BrokerMessageListener {

    @Inject
    Tracer tracer;

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Override
    public void onMessage(BrokerMessage message) {
        if (!BrokerDb.REQUEST.equals(message.messageTypeName())) {
            return;
        }
        Recorder.record(factory, "request:" + Span.current().getSpanContext().getTraceId());
        Span own = tracer.spanBuilder("pick order").startSpan();
        try (Scope ignored = own.makeCurrent(); ServiceBrokerConnection c = factory.getConnection()) {
            Recorder.record(factory, "own:" + own.getSpanContext().getTraceId() + "/"
                    + own.getSpanContext().getSpanId());
            c.send(message.conversation(), BrokerDb.REQUEST, "picked".getBytes(StandardCharsets.UTF_8));
        } finally {
            own.end();
        }
    }
}
