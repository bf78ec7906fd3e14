// Can the host CPU map device memory on this machine? (A kernel that polls device memory the host
// stores into would not read host memory at all.) Exports a cuMemAlloc range as a dma-buf, maps the
// fd, and looks for GDRCopy's driver. Build and run on the GPU machine (it has libcuda):
//   nvcc -O2 -o /tmp/dmabuf_probe scripts/kernel-lab/dmabuf_probe.cu -lcuda && /tmp/dmabuf_probe
#include <cuda.h>
#include <cstdio>
#include <cstring>
#include <cerrno>
#include <sys/mman.h>
#include <unistd.h>
#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char* s; cuGetErrorString(r, &s); printf("%s -> %d %s\n", #x, r, s); return 1; } } while (0)
int main() {
  CK(cuInit(0));
  CUdevice dev; CK(cuDeviceGet(&dev, 0));
  CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  int dmabuf = 0; cuDeviceGetAttribute(&dmabuf, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, dev);
  printf("DMA_BUF_SUPPORTED=%d\n", dmabuf);
  size_t size = 2 << 20;
  CUdeviceptr d; CK(cuMemAlloc(&d, size));
  int fd = -1;
  CUresult r = cuMemGetHandleForAddressRange(&fd, d, size, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
  printf("cuMemGetHandleForAddressRange -> %d fd=%d\n", r, fd);
  if (r == CUDA_SUCCESS) {
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) printf("mmap(dma-buf) failed: %s\n", strerror(errno));
    else { ((volatile unsigned*)p)[0] = 42u; unsigned v; CK(cuMemcpyDtoH(&v, d, 4)); printf("mmap ok, device sees %u\n", v); }
  }
  printf("gdrdrv: %s\n", access("/dev/gdrdrv", F_OK) == 0 ? "present" : "absent");
  return 0;
}
