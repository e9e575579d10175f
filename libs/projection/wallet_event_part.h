// A projector of the wallet's topic that takes each record decoded
// (envelope and WalletEvent). Alone, it decodes the record itself
// (Apply); inside ReportingProjector the record is decoded once and handed
// to every such part (ApplyWallet), so adding a part costs no second
// decode. A part that also follows other topics (the finance part) takes
// their records raw (ApplyOther); parts that want every record raw stay
// plain Projectors.
#ifndef BANCA_LIBS_PROJECTION_WALLET_EVENT_PART_H_
#define BANCA_LIBS_PROJECTION_WALLET_EVENT_PART_H_

#include <string>
#include <vector>

#include "libs/projection/projector.h"
#include "libs/wire/wallet_codec.h"

namespace banca::projection {

class WalletEventPart : public Projector {
 public:
  // The wallet topic.
  std::vector<std::string> Topics() const override;
  // A wallet record: decodes it (DATA_LOSS when it is no wallet event) and
  // applies it (ApplyWallet); any other: ApplyOther.
  absl::Status Apply(const eventlog::StoredRecord& record, Txn& txn) final;
  // `decoded` is `record` decoded. A pure function of the record and the
  // projection's contents, as Apply.
  virtual absl::Status ApplyWallet(const eventlog::StoredRecord& record,
                                   const wire::DecodedWalletEvent& decoded,
                                   Txn& txn) = 0;
  // A record of another topic the part follows (Topics). INTERNAL unless
  // overridden: a part of the wallet topic alone gets none.
  virtual absl::Status ApplyOther(const eventlog::StoredRecord& record,
                                  Txn& txn);
};

}  // namespace banca::projection

#endif  // BANCA_LIBS_PROJECTION_WALLET_EVENT_PART_H_
