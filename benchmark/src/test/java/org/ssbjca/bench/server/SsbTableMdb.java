package org.ssbjca.bench.server;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.TableRow;
import org.ssbjca.api.TableRowListener;

/** ssb-jca's table queue: one row of the benchmark's work table per transaction, removed with the delivery. */
@MessageDriven(name = "SsbTableMdb", activationConfig = {
    @ActivationConfigProperty(propertyName = "table", propertyValue = "bench_work"),
    @ActivationConfigProperty(propertyName = "keyColumn", propertyValue = "id"),
    @ActivationConfigProperty(propertyName = "payloadColumn", propertyValue = "body"),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "4"),
    @ActivationConfigProperty(propertyName = "pollMillis", propertyValue = "100")
})
@ResourceAdapter("ssb-jca.rar")
public class SsbTableMdb implements TableRowListener {

    @Resource
    private TransactionSynchronizationRegistry registry;

    @Override
    public void onRow(TableRow row) {
        Recorder.delivered(registry, 1, row.payloadText());
    }
}
