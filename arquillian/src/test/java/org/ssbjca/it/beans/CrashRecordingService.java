package org.ssbjca.it.beans;

import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.transaction.TransactionManager;
import org.jboss.ejb3.annotation.ResourceAdapter;
import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.ServiceBrokerConnectionFactory;

/**
 * Test MDB on {@value #QUEUE}, four readers: records every message in {@code it_record} of another database, through
 * the connection factory {@value #RECORD_FACTORY}. Each delivery is then a two-phase commit of two branches in two
 * databases (the reader's RECEIVE, the record), which a crash can leave in doubt; a third, {@link SlowPrepare}, holds
 * them prepared for 100 ms in every delivery, so that the kill finds some.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = CrashRecordingService.QUEUE),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "4"),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "2000")
})
@ResourceAdapter("ssb-jca.rar")
public class CrashRecordingService implements BrokerMessageListener {

    /** The queue. */
    public static final String QUEUE = "ItCrashQueue";
    /** The connection factory of the record database. */
    public static final String RECORD_FACTORY = "java:/ssb/RecordFactory";

    @Resource(lookup = RECORD_FACTORY)
    private ServiceBrokerConnectionFactory records;

    @Resource(lookup = "java:/TransactionManager")
    private TransactionManager transactions;

    @Override
    public void onMessage(BrokerMessage message) {
        Recorder.record(records, message);
        SlowPrepare.enlist(transactions, 100);
    }
}
