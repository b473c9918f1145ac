package org.ssbjca.it.jmx;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.ejb.MessageDrivenContext;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/**
 * Rolls back every delivery: with maxDeliveryAttempts 1 its messages are dead-lettered after one attempt. A message
 * whose body starts with {@code second chance} fails only its first delivery, so that its dead letter can be
 * delivered again.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = FailingBean.QUEUE),
    @ActivationConfigProperty(propertyName = "maxDeliveryAttempts", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "1000"),
    @ActivationConfigProperty(propertyName = "reconnectInitialMillis", propertyValue = "200"),
    @ActivationConfigProperty(propertyName = "reconnectMaxMillis", propertyValue = "1000")
})
@ResourceAdapter("ssb-jca.rar")
public class FailingBean implements BrokerMessageListener {

    static final String QUEUE = "JmxFailingQueue";

    @Resource
    private MessageDrivenContext context;

    private static final Set<String> FAILED_ONCE = ConcurrentHashMap.newKeySet();

    @Override
    public void onMessage(BrokerMessage message) {
        String body = message.bodyAsText();
        if (body.startsWith("second chance") && !FAILED_ONCE.add(body)) {
            DeliveryRecorder.deliver(QUEUE, body);
            return;
        }
        context.setRollbackOnly();
    }
}
