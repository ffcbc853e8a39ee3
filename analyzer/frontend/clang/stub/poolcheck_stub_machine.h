#pragma clang system_header /* its macros and bodies are the stub's, not the kernel's */
/* poolcheck_stub_machine.h - runtime, machine and simulation internals and the system tests' helpers.
 * Part of poolcheck_tilefwk_stub.h (stub mode), which includes it; not a header of its own.
 *
 * Upstream's machine tests (framework/tests/st/machine, ut/machine) drive a kernel through the
 * runtime after building it: a launcher config, the device program and its control-flow cache,
 * device tensors.  None of it is kernel work; it is declared, with the fields and members the
 * tests use, so that the test bodies around the kernels parse.  The headers they come from
 * (machine/runtime/..., machine/utils/dynamic/..., adapter/api/...) are stood in for by empty files
 * in stub/include/machine/. */
#ifndef POOLCHECK_STUB_MACHINE_H
#define POOLCHECK_STUB_MACHINE_H

namespace npu {
namespace tile_fwk {
/* ---- adapter/api: the CANN runtime and ACL calls tests make (runtime_define.h, acl_define.h) ---- */
using RtError = int32_t;
using RtStream = void *;
using AclError = int;
enum class RtMemcpyKind {
    HOST_TO_HOST = 0, HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_TO_DEVICE, MANAGED, ADDR_DEVICE_TO_DEVICE,
    HOST_TO_DEVICE_EX, DEVICE_TO_HOST_EX, DEFAULT, RESERVED
};
AclError AclInit(const char *configPath);
RtError RuntimeSetDevice(int32_t devId);
/* machine/runtime/runner/runtime_utils.h: a macro over the runtime's copy upstream */
RtError RuntimeMemcpy(void *dst, uint64_t destMax, const void *src, uint64_t count, RtMemcpyKind kind);

/* machine/runtime/context/stream_context.h */
class StreamContext {
public:
    RtStream &GetAiCoreStream();
    RtStream &GetScheStream();
    RtStream &GetCtrlStream();
};
StreamContext &GetStreamContext();

/* machine/runtime/memory_utils/memory_pool.h: device memory the tests allocate their data in */
class DevMemoryPool {
public:
    static DevMemoryPool &Instance();
    void AllocDevAddr(uint8_t **devAddr, const uint64_t size);
    void FreeDevAddr(void *ptr);
    bool CheckAllSentinels();
    void DestroyPool();
};

/* machine/runtime/context/device_launcher_context.h: set up and torn down around each test */
class DeviceLauncherContext {
public:
    static DeviceLauncherContext &Get();
    void Initialize();
    void Finalize();
    void SetCaptureMode(const bool captureMode);
    bool IsCaptureMode() const;
};

/* interface/machine/device/tilefwk (aikernel_tensor.h, aikernel_runtime_data_ring_buffer.h,
 * aikernel_device_task.h): the device-side tensor records, aggregates the tests brace-initialise */
constexpr int32_t DEV_SHAPE_DIM_MAX = 6;
struct DevShape {
    int dimSize{0};
    int dim[DEV_SHAPE_DIM_MAX];
    int64_t GetSize() const;
    bool Equal(const DevShape &s) const;
};
struct DevTensorData {
    uint64_t address{0};
    DevShape shape;
    int32_t dataType;
};
struct DevStartArgsBase {
    DevTensorData *devTensorList;
    uint64_t inputTensorSize;
    uint64_t outputTensorSize;
    int64_t *commContexts;
    uint64_t commGroupNum;
    int GetInputTensorSize() const;
    int GetOutputTensorSize() const;
    DevTensorData &GetInputTensor(int index);
    DevTensorData &GetOutputTensor(int index);
};
struct DynFuncHeader {
    uint64_t seqNo;
    uint32_t funcNum;
    uint32_t Size();
    uint64_t GetIndex();
};

namespace dynamic {
/* machine/runtime/launcher/device_launcher_types.h */
class DeviceTensorData {
public:
    DeviceTensorData();
    DeviceTensorData(DataType dtype, void *addr, const std::vector<int64_t> &shape,
                     TileOpFormat format = TileOpFormat::TILEOP_ND);
    DeviceTensorData(DataType dtype, uintptr_t addr, const std::vector<int64_t> &shape,
                     TileOpFormat format = TileOpFormat::TILEOP_ND);
    void *GetAddr() const;
    const std::vector<int64_t> &GetShape() const;
    DataType GetDataType() const;
    TileOpFormat Format() const;
    int64_t GetDataSize() const;
};
struct DeviceLauncherConfig {
    bool onBoard{true};
    int blockdim{0};
    int aicpuNum{5};
    int64_t dynWorkspaceSize{0};
    int64_t repeatNum{1};
    bool runModel{true};
    std::vector<uint64_t> hcclContext;
    bool controlFlowCache{false};
    bool cpuSeparate{false};
    uint64_t workspaceAddr{0};
    bool workspaceAllocByTorch{false};
    bool isCacheOriginShape{true};
    DeviceLauncherConfig();
    DeviceLauncherConfig(bool onboard, int tblockdim, int taicpunum);
    DeviceLauncherConfig(int64_t tdynWorkspaceSize);
    DeviceLauncherConfig(int64_t tdynWorkspaceSize, int64_t trepeatNum);
    DeviceLauncherConfig(const std::vector<uint64_t> &addrs);
    static DeviceLauncherConfig CreateConfigWithWorkspaceAddr(uint64_t workspaceAddr);
};

/* machine/utils/dynamic: the device program and its control-flow cache (dev_encode_types.h,
 * dev_encode_program_ctrlflow_cache.h, dev_encode_program.h) */
template <typename T> struct DevRelocVector {
    T &operator[](size_t idx);
    const T &operator[](size_t idx) const;
    T *begin();
    T *end();
    const T *begin() const;
    const T *end() const;
    size_t size() const;
    T *Data();
};
struct DynDeviceTaskBase {
    DynFuncHeader *GetDynFuncDataList();
};
struct DeviceTaskCache {
    DynDeviceTaskBase *dynTaskBase;
};
struct DevControlFlowCache {
    uint64_t allCacheSize{0};
    uint64_t usedCacheSize{0};
    bool isRecording{false};
    bool isActivated{false};
    bool isRelocMetaDev{false};
    bool isRelocDataDev{false};
    bool isCacheOriginShape{true};
    DevRelocVector<DevTensorData> inputTensorDataList;
    DevRelocVector<DevTensorData> outputTensorDataList;
    bool isRecordingStopped;
    uint64_t deviceTaskCount;
    uint64_t rootTaskCount;
    uint64_t cacheDataOffset;
    uint64_t deviceTaskSkippedCount;
    uint64_t contextWorkspaceAddr;
    DevRelocVector<DeviceTaskCache> deviceTaskCacheList;
    DevRelocVector<uint8_t> cacheData;
    uint64_t workspaceAddr;
    bool MatchInputOutput(DevStartArgsBase *startArgs) const;
    void TaskAddrRelocProgramAndCtrlCache(uint64_t srcProgram, uint64_t srcCtrlCache, uint64_t dstProgram,
                                          uint64_t dstCtrlCache);
    void RelocMetaCache(uint64_t srcCache, uint64_t dstCache);
};
struct DevAscendProgram {
    uint64_t workspaceSize;
    uint32_t slotSize;
    struct {
        struct {
            uint64_t rootInnerSpilledMem;
            uint64_t devTaskInnerExclusiveOutcasts;
            uint64_t maxStaticOutcastMem{0};
            uint64_t maxDynamicAssembleOutcastMem{0};
            uint64_t devTaskBoundaryOutcastNum{0};
            uint64_t devTaskInnerTemporalOutcastNum{0};
            uint32_t parallelism{1};
            uint64_t Total() const;
        } tensor;
        uint64_t Total() const;
    } memBudget;
    DevControlFlowCache controlFlowCache;
    void RelocProgram(uint64_t srcProgram, uint64_t dstProgram, bool relocFunc = false);
};

/* machine/runtime/memory_utils/emulation_memory_utils.h: host memory standing in for the device's */
struct EmulationMemoryUtils {
    EmulationMemoryUtils();
    uint8_t *AllocDev(size_t size, uint8_t **cachedDevAddrHolder);
    uint8_t *AllocZero(uint64_t size, uint8_t **cachedDevAddrHolder);
};

/* machine/runtime/launcher/device_launcher.h and emulation_launcher.h: running a built function */
class DeviceLauncher {
public:
    static DevAscendProgram *GetDevProg(Function *func);
    static void DeviceLauncherConfigFillDeviceInfo(const DeviceLauncherConfig &config);
    static int DeviceRunOnce(Function *function, DevControlFlowCache *hostCtrlCache = nullptr,
                             const DeviceLauncherConfig &config = DeviceLauncherConfig());
    static void SetDevRunCacheKernelEnable(Function *func, bool enabled);
    static bool IsDevRunCacheKernelEnable(Function *func);
};
class EmulationLauncher {
public:
    static int EmulationLaunchDeviceTensorData(Function *function, const std::vector<DeviceTensorData> &inputList,
                                               const std::vector<DeviceTensorData> &outputList,
                                               const DeviceLauncherConfig &config = DeviceLauncherConfig(),
                                               DevControlFlowCache *ctrlCache = nullptr);
    static int EmulationRunOnce(Function *function, DevControlFlowCache *ctrlCache,
                                const DeviceLauncherConfig &config = DeviceLauncherConfig());
    static int BuildControlFlowCache(Function *function, EmulationMemoryUtils &memUtils,
                                     const std::vector<DeviceTensorData> &inputList = {},
                                     const std::vector<DeviceTensorData> &outputList = {},
                                     DevControlFlowCache **outCtrlFlowCache = nullptr,
                                     const DeviceLauncherConfig &config = DeviceLauncherConfig());
    static int BuildControlFlowCache(Function *function, DevControlFlowCache **outCtrlFlowCache,
                                     EmulationMemoryUtils &memUtils,
                                     const DeviceLauncherConfig &config = DeviceLauncherConfig());
};

/* machine/runtime/launcher/device_launcher_binding.h: the exported-operator entry points and the
 * evaluator of a function's symbolic sizes over concrete tensors */
using DeviceStream = unsigned long long;
class ExportedOperator;
ExportedOperator *ExportedOperatorBegin();
void ExportedOperatorEnd(ExportedOperator *op);
int ExportedOperatorDeviceLaunchOnceWithDeviceTensorData(ExportedOperator *op,
                                                         const std::vector<DeviceTensorData> &inputList,
                                                         const std::vector<DeviceTensorData> &outputList,
                                                         DeviceStream aicoreStream, bool streamSynchronize,
                                                         uint8_t *devCtrlCache = nullptr,
                                                         const DeviceLauncherConfig &config = DeviceLauncherConfig());
struct Evaluator {
    /* the dictionary is the function's own (DyndevFunctionAttribute::inputSymbolDict) */
    Evaluator(decltype(DyndevFunctionAttribute::inputSymbolDict) &symbolDictArg,
              const std::vector<DeviceTensorData> *inputsArg, const std::vector<DeviceTensorData> *outputsArg);
    int64_t Evaluate(const SymbolicScalar &scalar) const;
};
} // namespace dynamic
} // namespace tile_fwk
} // namespace npu

#endif /* POOLCHECK_STUB_MACHINE_H */
