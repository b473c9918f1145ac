package org.ssbjca.it.beans;

import org.ssbjca.api.BrokerMessage;
import org.ssbjca.api.BrokerMessageListener;
import org.ssbjca.api.TableRow;
import org.ssbjca.api.TableRowListener;

/**
 * A message-driven bean that does nothing with what it gets: declared several times in an {@code ejb-jar.xml}, each
 * with its own name, messaging type and queue or table, so that one class makes as many activations as a test needs.
 */
public class IdleReader implements BrokerMessageListener, TableRowListener {

    @Override
    public void onMessage(BrokerMessage message) {
        // nothing is sent to these queues
    }

    @Override
    public void onRow(TableRow row) {
        // nothing is inserted into these tables
    }
}
