package org.ssbjca.bench.server;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.List;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.ConversationGroupListener;

/** ssb-jca's batch listener: a whole conversation group (up to 10,000 messages) per transaction. */
@MessageDriven(name = "SsbBatchMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "BenchQueue"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "4"),
    @ActivationConfigProperty(propertyName = "receiveBatchSize", propertyValue = "10000")
})
@ResourceAdapter("ssb-jca.rar")
public class SsbBatchMdb implements ConversationGroupListener {

    @Resource
    private TransactionSynchronizationRegistry registry;

    @Override
    public void onMessages(List<BrokerMessage> messages) {
        String first = null;
        for (BrokerMessage m : messages) {
            String body = m.bodyAsText();
            if (first == null) {
                first = body;
            }
        }
        Recorder.delivered(registry, messages.size(), first);
    }
}
