package org.ssbjca.it.tracing;

import io.opentelemetry.api.trace.Span;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.it.beans.Recorder;

/** On {@value TracingIT#REPLY_QUEUE}: records the trace id current for the reply ({@code reply:}), ends the dialog. */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = TracingIT.REPLY_QUEUE),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "2000")
})
@ResourceAdapter("ssb-jca.rar")
public class TracedReplyService implements BrokerMessageListener {

    @Resource(lookup = "java:/ssb/ConnectionFactory")
    private ServiceBrokerConnectionFactory factory;

    @Override
    public void onMessage(BrokerMessage message) {
        if (message.isEndDialog() || message.isError()) {
            return;
        }
        Recorder.record(factory, "reply:" + Span.current().getSpanContext().getTraceId() + " carried "
                + message.traceContext().orElse("nothing"));
        try (ServiceBrokerConnection c = factory.getConnection()) {
            c.endConversation(message.conversation());
        }
    }
}
