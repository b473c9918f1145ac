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
 * Test MDB on {@value #QUEUE}, one reader: records every message through {@link CrashRecordingService#RECORD_FACTORY}
 * (a second database), then enlists a {@link SlowPrepare} of {@value #PREPARE_MILLIS} ms, which gives a test time to
 * act between the record's prepare and the commits that follow.
 */
@MessageDriven(activationConfig = {
    @ActivationConfigProperty(propertyName = "queue", propertyValue = HeldCommitRecordingService.QUEUE),
    @ActivationConfigProperty(propertyName = "maxReaders", propertyValue = "1"),
    @ActivationConfigProperty(propertyName = "waitTimeout", propertyValue = "2000")
})
@ResourceAdapter("ssb-jca.rar")
public class HeldCommitRecordingService implements BrokerMessageListener {

    /** The queue. */
    public static final String QUEUE = "ItHeldCommitQueue";
    /** How long the last branch's prepare lasts. */
    public static final long PREPARE_MILLIS = 3000;

    @Resource(lookup = CrashRecordingService.RECORD_FACTORY)
    private ServiceBrokerConnectionFactory records;

    @Resource(lookup = "java:/TransactionManager")
    private TransactionManager transactions;

    @Override
    public void onMessage(BrokerMessage message) {
        Recorder.record(records, message);
        SlowPrepare.enlist(transactions, PREPARE_MILLIS);
    }
}
