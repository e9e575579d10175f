// The table host (services/common/table_host.h) for the table service's
// two games: the poker tables and the banked games.
#include "services/common/table_host_impl.h"
#include "services/table/banked_table.h"
#include "services/table/poker_table.h"

namespace banca::table {

template class TableHost<PokerGame>;
template class TableHost<BankedGame>;

}  // namespace banca::table
