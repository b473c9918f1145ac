package org.ssbjca.bench.server;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;

/** ssb-jca, one message per transaction (receiveBatchSize 1); readers set per deployment in ejb-jar.xml. */
@MessageDriven(name = "SsbBenchMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = "BenchQueue"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "4")
})
@ResourceAdapter("ssb-jca.rar")
public class SsbBenchMdb implements BrokerMessageListener {

    @Resource
    private TransactionSynchronizationRegistry registry;

    @Override
    public void onMessage(BrokerMessage message) {
        Recorder.delivered(registry, 1, message.bodyAsText());
    }
}
