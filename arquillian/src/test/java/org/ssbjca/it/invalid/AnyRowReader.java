package org.ssbjca.it.invalid;

import org.ssbjca.api.TableRow;
import org.ssbjca.api.TableRowListener;

/** As {@link AnyReader}, for a table activation: every property comes from the {@code ejb-jar.xml}. */
public class AnyRowReader implements TableRowListener {

    @Override
    public void onRow(TableRow row) {
        // never activated
    }
}
